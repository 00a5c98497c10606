import { sql, type Compilable, type Selectable } from "kysely";
import type { AlertDelivery, AlertMessage, IssueFeedEntry, WebhookFormat } from "../../model";
import type { AlertFeedRepo, AlertOutboxRepo, NewDelivery } from "../alert-types";
import { rowIdOf, type AppDialect, type AppQueries } from "./dialect";
import type { AlertDeliveriesTable } from "./schema";

/** pg_try_advisory_xact_lock key of the evaluation pass ("alrt"). */
const EVALUATION_LOCK = 0x616c7274;

/** The outbox row's payload: the frozen message and, for webhooks, the body format. */
interface StoredPayload {
  format: WebhookFormat | null;
  message: AlertMessage;
}

export function deliveryOf(row: Selectable<AlertDeliveriesTable>): AlertDelivery {
  const payload = JSON.parse(row.payload) as StoredPayload;
  return {
    id: String(row.id),
    ruleId: row.rule_id === null ? null : String(row.rule_id),
    projectId: String(row.project_id),
    issueId: row.issue_id === null ? null : String(row.issue_id),
    kind: row.kind === "test" ? "test" : row.kind === "metric" ? "metric" : "issue",
    metricRuleId: row.metric_rule_id === null ? null : String(row.metric_rule_id),
    channel: row.channel === "email" ? "email" : "webhook",
    target: row.target,
    format: payload.format,
    message: payload.message,
    status: row.status === "sent" ? "sent" : row.status === "failed" ? "failed" : "pending",
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastError: row.last_error,
    dateCreated: Number(row.date_created),
    dateSent: row.date_sent === null ? null : Number(row.date_sent),
  };
}

export function insertDeliveries(db: AppQueries, deliveries: NewDelivery[], now: number): Compilable[] {
  return deliveries.map((d) =>
    db
      .insertInto("alert_deliveries")
      .values({
        rule_id: d.ruleId === null ? null : rowIdOf(d.ruleId), project_id: rowIdOf(d.projectId),
        issue_id: d.issueId === null ? null : rowIdOf(d.issueId), kind: d.kind, channel: d.channel, target: d.target,
        payload: JSON.stringify({ format: d.format, message: d.message } satisfies StoredPayload),
        dedupe_key: d.dedupeKey, next_attempt_at: now, date_created: now,
        ...(d.metricRuleId ? { metric_rule_id: rowIdOf(d.metricRuleId) } : {}),
      })
      .onConflict((c) => c.column("dedupe_key").doNothing()),
  );
}

/** The issue feed the ingest commit writes, evaluated in passes (services/alerts/evaluator.ts). */
export function appAlertFeed(dialect: AppDialect): AlertFeedRepo {
  const { db } = dialect;
  return {
    evaluate(limit, decide) {
      return dialect.exclusively(EVALUATION_LOCK, async (q) => {
        const rows = await q.selectFrom("alert_issue_feed").selectAll().where("evaluated", "=", 0).orderBy("id").limit(limit).execute();
        if (rows.length === 0) return { result: 0, statements: [] };
        const entries: IssueFeedEntry[] = rows.map((row) => ({
          id: String(row.id), issueId: String(row.issue_id), projectId: String(row.project_id), prevStatus: row.prev_status,
          count: Number(row.count), users: JSON.parse(row.users) as string[], level: row.level, release: row.release,
          tags: JSON.parse(row.tags) as [string, string][], committed: Number(row.committed),
        }));
        const outcome = await decide(entries);
        const now = Date.now();
        const statements: Compilable[] = [
          ...outcome.fired.map((f) =>
            q.insertInto("alert_rule_issues").values({ rule_id: rowIdOf(f.ruleId), issue_id: rowIdOf(f.issueId), condition: f.condition, last_fired: f.at })
              .onConflict((c) => c.columns(["rule_id", "issue_id", "condition"]).doUpdateSet({ last_fired: f.at })),
          ),
          ...insertDeliveries(q, outcome.deliveries, now),
          q.updateTable("alert_issue_feed").set({ evaluated: 1 }).where("id", "in", rows.map((row) => row.id)),
        ];
        return { result: rows.length, statements };
      });
    },
    async windowCount(issueId, since, upToId) {
      const row = await db.selectFrom("alert_issue_feed").select((eb) => eb.fn.sum<number>("count").as("n"))
        .where("issue_id", "=", rowIdOf(issueId)).where("committed", ">=", since).where("id", "<=", rowIdOf(upToId)).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async windowUsers(issueId, since, upToId) {
      const rows = await db.selectFrom("alert_issue_feed").select("users")
        .where("issue_id", "=", rowIdOf(issueId)).where("committed", ">=", since).where("id", "<=", rowIdOf(upToId)).execute();
      const users = new Set<string>();
      for (const row of rows) for (const user of JSON.parse(row.users) as string[]) users.add(user);
      return users;
    },
    async projectEntries(projectId, since) {
      const rows = await db.selectFrom("alert_issue_feed").select(["count", "users", "tags"])
        .where("project_id", "=", rowIdOf(projectId)).where("committed", ">=", since).execute();
      return rows.map((row) => ({ count: Number(row.count), users: JSON.parse(row.users) as string[], tags: JSON.parse(row.tags) as [string, string][] }));
    },
    async pending() {
      const row = await db.selectFrom("alert_issue_feed").select((eb) => eb.fn.countAll<number>().as("n")).where("evaluated", "=", 0).executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    async expire(before) {
      const result = await db.deleteFrom("alert_issue_feed").where("evaluated", "=", 1).where("committed", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** The delivery outbox: claimed with a lease, so a crashed sender's rows come back after it. */
export function appAlertOutbox(dialect: AppDialect): AlertOutboxRepo {
  const { db } = dialect;
  return {
    async add(deliveries, now) {
      if (deliveries.length > 0) await dialect.atomically(insertDeliveries(db, deliveries, now));
    },
    async claim(limit, now, leaseMs) {
      const due = dialect.skipLocked(
        db.selectFrom("alert_deliveries").select("id")
          .where("status", "=", "pending").where("next_attempt_at", "<=", now)
          .where((eb) => eb.or([eb("lease_until", "is", null), eb("lease_until", "<", now)]))
          .orderBy("id").limit(limit),
      );
      const rows = await db.updateTable("alert_deliveries")
        .set({ lease_until: now + leaseMs, attempts: sql<number>`attempts + 1` })
        .where("id", "in", due).returningAll().execute();
      return rows.map(deliveryOf).sort((a, b) => Number(a.id) - Number(b.id));
    },
    async markSent(id, now) {
      await db.updateTable("alert_deliveries").set({ status: "sent", date_sent: now, lease_until: null, last_error: null }).where("id", "=", rowIdOf(id)).execute();
    },
    async releaseLeases() {
      await db.updateTable("alert_deliveries").set({ lease_until: null }).where("status", "=", "pending").where("lease_until", "is not", null).execute();
    },
    async markFailed(id, error, retryAt) {
      await db.updateTable("alert_deliveries")
        .set(retryAt === null ? { status: "failed", last_error: error, lease_until: null } : { next_attempt_at: retryAt, last_error: error, lease_until: null })
        .where("id", "=", rowIdOf(id)).execute();
    },
    async listForRule(ruleId, limit) {
      const rows = await db.selectFrom("alert_deliveries").selectAll().where("rule_id", "=", rowIdOf(ruleId)).orderBy("id", "desc").limit(limit).execute();
      return rows.map(deliveryOf);
    },
    async get(id) {
      const row = await db.selectFrom("alert_deliveries").selectAll().where("id", "=", rowIdOf(id)).executeTakeFirst();
      return row ? deliveryOf(row) : null;
    },
  };
}
