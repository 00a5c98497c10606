import type { Selectable } from "kysely";
import type { AlertRule, AlertRuleFields } from "../../model";
import type { AlertRuleRepo, AlertSettingsRepo } from "../alert-types";
import type { AlertRulesTable } from "./schema";
import { rowIdOf, type AppDialect } from "./dialect";

type RuleRow = Selectable<AlertRulesTable>;

function ruleOf(row: RuleRow): AlertRule {
  return {
    id: String(row.id),
    projectId: String(row.project_id),
    name: row.name,
    actionMatch: row.action_match === "all" ? "all" : "any",
    filterMatch: row.filter_match === "any" ? "any" : "all",
    conditions: JSON.parse(row.conditions) as AlertRule["conditions"],
    filters: JSON.parse(row.filters) as AlertRule["filters"],
    actions: JSON.parse(row.actions) as AlertRule["actions"],
    environment: row.environment,
    frequency: Number(row.frequency),
    muted: Number(row.muted) === 1,
    signingSecret: row.signing_secret,
    createdBy: row.created_by === null ? null : String(row.created_by),
    dateCreated: Number(row.date_created),
    dateUpdated: Number(row.date_updated),
  };
}

function columnsOf(fields: AlertRuleFields) {
  return {
    name: fields.name,
    action_match: fields.actionMatch,
    filter_match: fields.filterMatch,
    conditions: JSON.stringify(fields.conditions),
    filters: JSON.stringify(fields.filters),
    actions: JSON.stringify(fields.actions),
    environment: fields.environment,
    frequency: fields.frequency,
  };
}

/** Issue alert rules of a project (issue 34). */
export function appAlertRules(dialect: AppDialect): AlertRuleRepo {
  const { db } = dialect;
  const one = async (projectId: string, ruleId: string) => {
    const row = await db.selectFrom("alert_rules").selectAll().where("project_id", "=", rowIdOf(projectId)).where("id", "=", rowIdOf(ruleId)).executeTakeFirst();
    return row ? ruleOf(row) : null;
  };
  return {
    async create(projectId, fields, { signingSecret, createdBy, now }) {
      const row = await db
        .insertInto("alert_rules")
        .values({
          project_id: rowIdOf(projectId), ...columnsOf(fields), signing_secret: signingSecret,
          created_by: createdBy === null ? null : rowIdOf(createdBy), date_created: now, date_updated: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return ruleOf(row);
    },
    async list(projectId) {
      const rows = await db.selectFrom("alert_rules").selectAll().where("project_id", "=", rowIdOf(projectId)).orderBy("id").execute();
      return rows.map(ruleOf);
    },
    async activeFor(projectIds) {
      if (projectIds.length === 0) return [];
      const rows = await db.selectFrom("alert_rules").selectAll().where("project_id", "in", projectIds.map(rowIdOf)).where("muted", "=", 0).orderBy("id").execute();
      return rows.map(ruleOf);
    },
    get: one,
    async update(projectId, ruleId, fields, now) {
      await db.updateTable("alert_rules").set({ ...columnsOf(fields), date_updated: now })
        .where("project_id", "=", rowIdOf(projectId)).where("id", "=", rowIdOf(ruleId)).execute();
      return one(projectId, ruleId);
    },
    async setMuted(projectId, ruleId, muted, now) {
      await db.updateTable("alert_rules").set({ muted: muted ? 1 : 0, date_updated: now })
        .where("project_id", "=", rowIdOf(projectId)).where("id", "=", rowIdOf(ruleId)).execute();
      return one(projectId, ruleId);
    },
    async remove(projectId, ruleId) {
      const id = rowIdOf(ruleId);
      const result = await db.deleteFrom("alert_rules").where("project_id", "=", rowIdOf(projectId)).where("id", "=", id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await db.deleteFrom("alert_rule_issues").where("rule_id", "=", id).execute();
      return true;
    },
    async lastFired(issueId, ruleIds) {
      const fired = new Map<string, number>();
      if (ruleIds.length === 0) return fired;
      const rows = await db.selectFrom("alert_rule_issues").select(["rule_id", "condition", "last_fired"])
        .where("issue_id", "=", rowIdOf(issueId)).where("rule_id", "in", ruleIds.map(rowIdOf)).execute();
      for (const row of rows) fired.set(`${row.rule_id}:${row.condition}`, Number(row.last_fired));
      return fired;
    },
  };
}

/** Issue snoozes and personal notification settings. */
export function appAlertSettings(dialect: AppDialect): AlertSettingsRepo {
  const { db } = dialect;
  return {
    async snooze(issueId, until, userId, now) {
      const values = { issue_id: rowIdOf(issueId), until, user_id: userId === null ? null : rowIdOf(userId), date_created: now };
      await db.insertInto("alert_issue_snoozes").values(values)
        .onConflict((c) => c.column("issue_id").doUpdateSet({ until, user_id: values.user_id, date_created: now })).execute();
    },
    async unsnooze(issueId) {
      await db.deleteFrom("alert_issue_snoozes").where("issue_id", "=", rowIdOf(issueId)).execute();
    },
    async snoozedUntil(issueId) {
      const row = await db.selectFrom("alert_issue_snoozes").select("until").where("issue_id", "=", rowIdOf(issueId)).executeTakeFirst();
      return row ? Number(row.until) : null;
    },
    async emailOff(userId) {
      const rows = await db.selectFrom("alert_user_settings").select("project_id").where("user_id", "=", rowIdOf(userId)).where("email", "=", 0).execute();
      return new Set(rows.map((row) => String(row.project_id)));
    },
    async emailOffAmong(projectId, userIds) {
      if (userIds.length === 0) return new Set();
      const rows = await db.selectFrom("alert_user_settings").select("user_id")
        .where("project_id", "=", rowIdOf(projectId)).where("user_id", "in", userIds.map(rowIdOf)).where("email", "=", 0).execute();
      return new Set(rows.map((row) => String(row.user_id)));
    },
    async setEmail(userId, projectId, on) {
      const values = { user_id: rowIdOf(userId), project_id: rowIdOf(projectId), email: on ? 1 : 0 };
      await db.insertInto("alert_user_settings").values(values)
        .onConflict((c) => c.columns(["user_id", "project_id"]).doUpdateSet({ email: values.email })).execute();
    },
  };
}
