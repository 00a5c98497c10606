/**
 * Issue alert rules of a project: the verbs behind `/api/0/projects/{org}/{project}/rules/` and the
 * project's alert pages. Callers have checked the project is visible to them and the scope.
 */
import { AppError } from "../../errors";
import { EMAIL_ACTION, FIRST_SEEN, REGRESSION, type AlertRule, type AlertRuleFields, type Organization, type Project } from "../../model";
import { newSecret } from "../../auth/secrets";
import type { Storage } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";

/** Every new project's rule: email the project's team on a new issue or a regression. */
export function defaultRuleFields(): AlertRuleFields {
  return {
    name: "Send a notification for new issues and regressions",
    actionMatch: "any",
    filterMatch: "all",
    conditions: [{ id: FIRST_SEEN }, { id: REGRESSION }],
    filters: [],
    actions: [{ id: EMAIL_ACTION, targetType: "IssueOwners" }],
    environment: null,
    frequency: 30,
  };
}

export async function addDefaultRule(storage: Storage, projectId: string): Promise<AlertRule> {
  return storage.alerts.rules.create(projectId, defaultRuleFields(), { signingSecret: newSecret(), createdBy: null, now: Date.now() });
}

/** Team and member ids an email action names must belong to the organisation: a 400 naming the action otherwise. */
async function checkTargets(storage: Storage, organization: Organization, fields: AlertRuleFields): Promise<void> {
  for (const [index, action] of fields.actions.entries()) {
    if (action.id !== EMAIL_ACTION) continue;
    const where = `actions.${index}.targetIdentifier`;
    if (action.targetType === "Team") {
      const team = await storage.accounts.teams.getById(action.targetIdentifier ?? "");
      if (!team || team.organizationId !== organization.id) throw new AppError("bad_request", `${where}: no team with id ${action.targetIdentifier} in this organization`);
    }
    if (action.targetType === "Member" && !(await storage.accounts.members.get(organization.id, action.targetIdentifier ?? ""))) {
      throw new AppError("bad_request", `${where}: no member with user id ${action.targetIdentifier} in this organization`);
    }
  }
}

export function listRules(storage: Storage, project: Project): Promise<AlertRule[]> {
  return storage.alerts.rules.list(project.id);
}

export async function getRule(storage: Storage, project: Project, ruleId: string): Promise<AlertRule> {
  const rule = await storage.alerts.rules.get(project.id, ruleId);
  if (!rule) throw new AppError("not_found", "alert rule not found");
  return rule;
}

export async function createRule(storage: Storage, actor: Actor, organization: Organization, project: Project, fields: AlertRuleFields): Promise<AlertRule> {
  await checkTargets(storage, organization, fields);
  const rule = await storage.alerts.rules.create(project.id, fields, { signingSecret: newSecret(), createdBy: actor.userId, now: Date.now() });
  await recordAudit(storage, actor, organization.id, "rule.add", { type: "rule", id: rule.id }, { project: project.slug, name: rule.name });
  return rule;
}

export async function updateRule(storage: Storage, actor: Actor, organization: Organization, project: Project, ruleId: string, fields: AlertRuleFields): Promise<AlertRule> {
  await getRule(storage, project, ruleId);
  await checkTargets(storage, organization, fields);
  const rule = await storage.alerts.rules.update(project.id, ruleId, fields, Date.now());
  if (!rule) throw new AppError("not_found", "alert rule not found");
  await recordAudit(storage, actor, organization.id, "rule.edit", { type: "rule", id: rule.id }, { project: project.slug, name: rule.name });
  return rule;
}

export async function setRuleMuted(storage: Storage, actor: Actor, organization: Organization, project: Project, ruleId: string, muted: boolean): Promise<AlertRule> {
  const rule = await storage.alerts.rules.setMuted(project.id, ruleId, muted, Date.now());
  if (!rule) throw new AppError("not_found", "alert rule not found");
  await recordAudit(storage, actor, organization.id, muted ? "rule.mute" : "rule.unmute", { type: "rule", id: rule.id }, { project: project.slug });
  return rule;
}

export async function deleteRule(storage: Storage, actor: Actor, organization: Organization, project: Project, ruleId: string): Promise<void> {
  if (!(await storage.alerts.rules.remove(project.id, ruleId))) throw new AppError("not_found", "alert rule not found");
  await recordAudit(storage, actor, organization.id, "rule.remove", { type: "rule", id: ruleId }, { project: project.slug });
}
