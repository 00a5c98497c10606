/**
 * Metric alert rules of an organisation: the verbs behind `/api/0/organizations/{org}/alert-rules/`
 * and the Alerts pages. A rule belongs to one project; a caller sees (and may change) only rules of
 * projects their teams own — any other is "not found", as if it did not exist.
 */
import { AppError } from "../../errors";
import type { AlertDelivery, MetricRule, MetricRuleFields, Project } from "../../model";
import { newSecret } from "../../auth/secrets";
import type { Storage } from "../../storage/types";
import { canSeeProject, visibleProjects, type Access } from "../accounts/access";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";

const LOG_LIMIT = 100;

export interface MetricRuleWithProject {
  rule: MetricRule;
  project: Project;
}

/** The project a rule's input names (by slug), if the caller may see it: a 400 naming `projects` otherwise. */
export async function projectForInput(storage: Storage, access: Access, slug: string): Promise<Project> {
  const project = await storage.projects.getBySlug(access.organization.id, slug);
  // Like a path that names a project: one the caller may not see is answered as if it did not exist.
  if (!project || !canSeeProject(access, project)) throw new AppError("not_found", `projects: project "${slug}" not found`);
  return project;
}

/** Team and member ids an email action names must belong to the organisation. */
async function checkTargets(storage: Storage, access: Access, fields: MetricRuleFields): Promise<void> {
  for (const [t, trigger] of fields.triggers.entries()) {
    for (const [a, action] of trigger.actions.entries()) {
      if (action.type !== "email") continue;
      const where = `triggers.${t}.actions.${a}.targetIdentifier`;
      if (action.targetType === "team") {
        const team = await storage.accounts.teams.getById(action.targetIdentifier);
        if (!team || team.organizationId !== access.organization.id) throw new AppError("bad_request", `${where}: no team with id ${action.targetIdentifier} in this organization`);
      }
      if (action.targetType === "user" && !(await storage.accounts.members.get(access.organization.id, action.targetIdentifier))) {
        throw new AppError("bad_request", `${where}: no member with user id ${action.targetIdentifier} in this organization`);
      }
    }
  }
}

export async function listMetricRules(storage: Storage, access: Access, projectIds?: string[]): Promise<MetricRuleWithProject[]> {
  const projects = visibleProjects(access, await storage.projects.listByOrganization(access.organization.id));
  const byId = new Map(projects.map((project) => [project.id, project]));
  const wanted = projectIds ? projectIds.filter((id) => byId.has(id)) : [...byId.keys()];
  const rules = await storage.alerts.metricRules.list(access.organization.id, wanted);
  return rules.map((rule) => ({ rule, project: byId.get(rule.projectId)! }));
}

export async function getMetricRule(storage: Storage, access: Access, ruleId: string): Promise<MetricRuleWithProject> {
  const rule = await storage.alerts.metricRules.get(access.organization.id, ruleId);
  const project = rule ? await storage.projects.getById(rule.projectId) : null;
  if (!rule || !project || !canSeeProject(access, project)) throw new AppError("not_found", "alert rule not found");
  return { rule, project };
}

export async function createMetricRule(storage: Storage, actor: Actor, access: Access, project: Project, fields: MetricRuleFields): Promise<MetricRule> {
  await checkTargets(storage, access, fields);
  const rule = await storage.alerts.metricRules.create(access.organization.id, project.id, fields, { signingSecret: newSecret(), createdBy: actor.userId, now: Date.now() });
  await recordAudit(storage, actor, access.organization.id, "alertrule.add", { type: "alert_rule", id: rule.id }, { project: project.slug, name: rule.name });
  return rule;
}

/** PUT replaces the whole rule (as Sentry's); its project stays. A changed rule starts again from ok. */
export async function updateMetricRule(storage: Storage, actor: Actor, access: Access, ruleId: string, project: Project, fields: MetricRuleFields): Promise<MetricRule> {
  const current = await getMetricRule(storage, access, ruleId);
  if (current.project.id !== project.id) throw new AppError("bad_request", "projects: a rule's project cannot be changed; create a new rule");
  await checkTargets(storage, access, fields);
  const rule = await storage.alerts.metricRules.update(access.organization.id, ruleId, fields, Date.now());
  if (!rule) throw new AppError("not_found", "alert rule not found");
  await recordAudit(storage, actor, access.organization.id, "alertrule.edit", { type: "alert_rule", id: rule.id }, { project: project.slug, name: rule.name });
  return rule;
}

export async function deleteMetricRule(storage: Storage, actor: Actor, access: Access, ruleId: string): Promise<void> {
  const { project } = await getMetricRule(storage, access, ruleId);
  if (!(await storage.alerts.metricRules.remove(access.organization.id, ruleId))) throw new AppError("not_found", "alert rule not found");
  await recordAudit(storage, actor, access.organization.id, "alertrule.remove", { type: "alert_rule", id: ruleId }, { project: project.slug });
}

export function metricDeliveryLog(storage: Storage, rule: MetricRule): Promise<AlertDelivery[]> {
  return storage.alerts.metricRules.listDeliveries(rule.id, LOG_LIMIT);
}
