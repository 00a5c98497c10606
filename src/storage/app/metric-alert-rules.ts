/** Metric alert rules and their state (issue 34 item 2), app data over Kysely. */
import { sql, type Compilable, type Selectable } from "kysely";
import type { MetricAggregate, MetricRule, MetricRuleFields, MetricRuleState, MetricTrigger } from "../../model";
import type { MetricRuleRepo, MetricStateChange, NewDelivery } from "../alert-types";
import { deliveryOf } from "./alert-outbox";
import { rowIdOf, type AppDialect, type AppQueries } from "./dialect";
import type { MetricAlertRulesTable } from "./schema";

/** pg_try_advisory_xact_lock key of the metric evaluation pass ("mtrc"). */
const METRIC_LOCK = 0x6d747263;

const STATES: readonly MetricRuleState[] = ["ok", "warning", "critical", "resolved"];

function ruleOf(row: Selectable<MetricAlertRulesTable>): MetricRule {
  const state = STATES.find((s) => s === row.state) ?? "ok";
  return {
    id: String(row.id),
    organizationId: String(row.organization_id),
    projectId: String(row.project_id),
    name: row.name,
    aggregate: row.aggregate as MetricAggregate,
    timeWindow: Number(row.time_window),
    thresholdType: Number(row.threshold_type) === 1 ? 1 : 0,
    resolveThreshold: row.resolve_threshold === null ? null : Number(row.resolve_threshold),
    environment: row.environment,
    triggers: JSON.parse(row.triggers) as MetricTrigger[],
    signingSecret: row.signing_secret,
    state,
    stateSeq: Number(row.state_seq),
    stateValue: row.state_value === null ? null : Number(row.state_value),
    stateChanged: row.state_changed === null ? null : Number(row.state_changed),
    lastEvaluated: row.last_evaluated === null ? null : Number(row.last_evaluated),
    createdBy: row.created_by === null ? null : String(row.created_by),
    dateCreated: Number(row.date_created),
    dateUpdated: Number(row.date_updated),
  };
}

function columnsOf(fields: MetricRuleFields) {
  return {
    name: fields.name, aggregate: fields.aggregate, time_window: fields.timeWindow, threshold_type: fields.thresholdType,
    resolve_threshold: fields.resolveThreshold, environment: fields.environment, triggers: JSON.stringify(fields.triggers),
  };
}

/**
 * A change's outbox rows, inserted only if its guarded state update took: a rule edited while the
 * pass read it (its seq moved) gets neither the change nor a message about its old definition.
 * Values are cast so PostgreSQL types the parameters of the SELECT list.
 */
function insertIfChanged(q: AppQueries, change: MetricStateChange, deliveries: NewDelivery[], now: number): Compilable[] {
  const int = (value: number) => sql<number>`CAST(${value} AS BIGINT)`;
  const text = (value: string) => sql<string>`CAST(${value} AS TEXT)`;
  return deliveries.map((d) =>
    q.insertInto("alert_deliveries")
      .columns(["rule_id", "project_id", "issue_id", "kind", "channel", "target", "payload", "dedupe_key", "next_attempt_at", "date_created", "metric_rule_id"])
      .expression(
        q.selectFrom("metric_alert_rules")
          .select([
            sql<null>`CAST(NULL AS BIGINT)`.as("rule_id"), int(rowIdOf(d.projectId)).as("project_id"), sql<null>`CAST(NULL AS BIGINT)`.as("issue_id"),
            text(d.kind).as("kind"), text(d.channel).as("channel"), text(d.target).as("target"),
            text(JSON.stringify({ format: d.format, message: d.message })).as("payload"), text(d.dedupeKey).as("dedupe_key"),
            int(now).as("next_attempt_at"), int(now).as("date_created"), int(rowIdOf(change.ruleId)).as("metric_rule_id"),
          ])
          .where("id", "=", rowIdOf(change.ruleId)).where("state_seq", "=", change.fromSeq + 1).where("state_changed", "=", change.at),
      )
      .onConflict((c) => c.column("dedupe_key").doNothing()),
  );
}

export function appMetricRules(dialect: AppDialect): MetricRuleRepo {
  const { db } = dialect;
  return {
    async create(organizationId, projectId, fields, options) {
      const row = await db.insertInto("metric_alert_rules")
        .values({
          ...columnsOf(fields), organization_id: rowIdOf(organizationId), project_id: rowIdOf(projectId), signing_secret: options.signingSecret,
          state_value: null, state_changed: null, last_evaluated: null,
          created_by: options.createdBy === null ? null : rowIdOf(options.createdBy), date_created: options.now, date_updated: options.now,
        })
        .returningAll().executeTakeFirstOrThrow();
      return ruleOf(row);
    },
    async list(organizationId, projectIds) {
      let query = db.selectFrom("metric_alert_rules").selectAll().where("organization_id", "=", rowIdOf(organizationId));
      if (projectIds) {
        if (projectIds.length === 0) return [];
        query = query.where("project_id", "in", projectIds.map(rowIdOf));
      }
      return (await query.orderBy("id").execute()).map(ruleOf);
    },
    async get(organizationId, ruleId) {
      const row = await db.selectFrom("metric_alert_rules").selectAll()
        .where("organization_id", "=", rowIdOf(organizationId)).where("id", "=", rowIdOf(ruleId)).executeTakeFirst();
      return row ? ruleOf(row) : null;
    },
    async update(organizationId, ruleId, fields, now) {
      // A changed rule is judged afresh; a bumped seq keeps a pass that read the old rule from writing.
      const row = await db.updateTable("metric_alert_rules")
        .set((eb) => ({ ...columnsOf(fields), state: "ok", state_seq: eb("state_seq", "+", 1), state_value: null, state_changed: now, date_updated: now }))
        .where("organization_id", "=", rowIdOf(organizationId)).where("id", "=", rowIdOf(ruleId))
        .returningAll().executeTakeFirst();
      return row ? ruleOf(row) : null;
    },
    async remove(organizationId, ruleId) {
      const result = await db.deleteFrom("metric_alert_rules")
        .where("organization_id", "=", rowIdOf(organizationId)).where("id", "=", rowIdOf(ruleId)).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    evaluate(decide) {
      return dialect.exclusively(METRIC_LOCK, async (q) => {
        const rules = (await q.selectFrom("metric_alert_rules").selectAll().orderBy("id").execute()).map(ruleOf);
        if (rules.length === 0) return { result: 0, statements: [] };
        const outcome = await decide(rules);
        const now = Date.now();
        const statements = [
          ...outcome.changes.map((change) =>
            q.updateTable("metric_alert_rules")
              .set({ state: change.state, state_seq: change.fromSeq + 1, state_value: change.value, state_changed: change.at, last_evaluated: change.at })
              .where("id", "=", rowIdOf(change.ruleId)).where("state_seq", "=", change.fromSeq),
          ),
          ...(outcome.evaluated.length > 0
            ? [q.updateTable("metric_alert_rules").set({ last_evaluated: now }).where("id", "in", outcome.evaluated.map(rowIdOf))]
            : []),
          ...outcome.changes.flatMap((change) =>
            insertIfChanged(q, change, outcome.deliveries.filter((d) => d.metricRuleId === change.ruleId), now)),
        ];
        return { result: rules.length, statements };
      });
    },
    async listDeliveries(ruleId, limit) {
      const rows = await db.selectFrom("alert_deliveries").selectAll().where("metric_rule_id", "=", rowIdOf(ruleId)).orderBy("id", "desc").limit(limit).execute();
      return rows.map(deliveryOf);
    },
  };
}
