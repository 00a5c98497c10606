/**
 * Cron monitors and their check-ins. The detection job's claims are conditional UPDATEs (one
 * statement each, ADR 0011): of several processes on one PostgreSQL exactly one sees its row changed.
 */
import { sql, type Selectable } from "kysely";
import type { CheckIn, CheckInStatus, Monitor, MonitorConfig, MonitorHealth, MonitorScheduleUnit, MonitorStatus } from "../../model";
import type { MonitorRepo } from "../monitor-types";
import { rethrowConstraint, rowIdOf, type AppDialect } from "./dialect";
import type { MonitorCheckinsTable, MonitorsTable } from "./schema";
import type { Updateable } from "kysely";

const configOf = (row: Selectable<MonitorsTable>): MonitorConfig => ({
  schedule:
    row.schedule_type === "interval"
      ? { type: "interval", value: Number(row.schedule), unit: (row.schedule_unit ?? "minute") as MonitorScheduleUnit }
      : { type: "crontab", value: row.schedule },
  checkinMargin: row.checkin_margin,
  maxRuntime: row.max_runtime,
  timezone: row.timezone,
  failureIssueThreshold: row.failure_issue_threshold,
  recoveryThreshold: row.recovery_threshold,
});

const configColumns = (config: MonitorConfig) => ({
  schedule_type: config.schedule.type,
  schedule: String(config.schedule.value),
  schedule_unit: config.schedule.type === "interval" ? config.schedule.unit : null,
  checkin_margin: config.checkinMargin,
  max_runtime: config.maxRuntime,
  timezone: config.timezone,
  failure_issue_threshold: config.failureIssueThreshold,
  recovery_threshold: config.recoveryThreshold,
});

const toMonitor = (row: Selectable<MonitorsTable>): Monitor => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  projectId: String(row.project_id),
  slug: row.slug,
  name: row.name,
  status: row.status as MonitorStatus,
  config: configOf(row),
  dateCreated: row.date_created,
  nextCheckIn: row.next_checkin,
  nextCheckInLatest: row.next_checkin_latest,
  lastCheckIn: row.last_checkin,
  lastStatus: row.last_status as CheckInStatus | null,
  lastEnvironment: row.last_environment,
  health: row.health as MonitorHealth,
  incidentIssueId: row.incident_issue_id === null ? null : String(row.incident_issue_id),
});

const toCheckIn = (row: Selectable<MonitorCheckinsTable>): CheckIn => ({
  id: String(row.id),
  monitorId: String(row.monitor_id),
  projectId: String(row.project_id),
  guid: row.guid,
  status: row.status as CheckInStatus,
  duration: row.duration,
  environment: row.environment,
  release: row.release,
  traceId: row.trace_id,
  dateAdded: row.date_added,
  dateUpdated: row.date_updated,
  expectedTime: row.expected_time,
});

export function appMonitors(dialect: AppDialect): MonitorRepo {
  const { db } = dialect;
  const byId = async (id: number) => {
    const row = await db.selectFrom("monitors").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toMonitor(row) : null;
  };
  return {
    async getBySlug(organizationId, slug) {
      const row = await db.selectFrom("monitors").selectAll().where("organization_id", "=", rowIdOf(organizationId)).where("slug", "=", slug).executeTakeFirst();
      return row ? toMonitor(row) : null;
    },
    getById: (id) => byId(rowIdOf(id)),
    async list(organizationId, projectIds) {
      const ids = projectIds.map(rowIdOf).filter((id) => id > 0);
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom("monitors")
        .selectAll()
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("project_id", "in", ids)
        .orderBy("slug")
        .execute();
      return rows.map(toMonitor);
    },
    async create(input) {
      try {
        const row = await db
          .insertInto("monitors")
          .values({
            organization_id: rowIdOf(input.organizationId),
            project_id: rowIdOf(input.projectId),
            slug: input.slug,
            name: input.name,
            status: input.status,
            ...configColumns(input.config),
            date_created: input.dateCreated,
            next_checkin: input.nextCheckIn,
            next_checkin_latest: input.nextCheckInLatest,
            last_checkin: null,
            last_status: null,
            last_environment: null,
            incident_issue_id: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toMonitor(row);
      } catch (error) {
        rethrowConstraint(dialect, error, { unique: `a monitor with the slug '${input.slug}' already exists` });
      }
    },
    async update(id, patch) {
      const values: Updateable<MonitorsTable> = {};
      if (patch.slug !== undefined) values.slug = patch.slug;
      if (patch.name !== undefined) values.name = patch.name;
      if (patch.status !== undefined) values.status = patch.status;
      if (patch.projectId !== undefined) values.project_id = rowIdOf(patch.projectId);
      if (patch.config !== undefined) Object.assign(values, configColumns(patch.config));
      if (patch.nextCheckIn !== undefined) values.next_checkin = patch.nextCheckIn;
      if (patch.nextCheckInLatest !== undefined) values.next_checkin_latest = patch.nextCheckInLatest;
      if (Object.keys(values).length > 0) {
        try {
          await db.updateTable("monitors").set(values).where("id", "=", rowIdOf(id)).execute();
        } catch (error) {
          rethrowConstraint(dialect, error, { unique: `a monitor with the slug '${String(patch.slug)}' already exists` });
        }
      }
      return byId(rowIdOf(id));
    },
    async remove(id) {
      const monitorId = rowIdOf(id);
      await dialect.atomically([
        db.deleteFrom("monitor_checkins").where("monitor_id", "=", monitorId),
        db.deleteFrom("monitors").where("id", "=", monitorId),
      ]);
      return true;
    },
    async insertCheckIn(input) {
      const row = await db
        .insertInto("monitor_checkins")
        .values({
          monitor_id: rowIdOf(input.monitorId),
          project_id: rowIdOf(input.projectId),
          guid: input.guid,
          status: input.status,
          duration: input.duration,
          environment: input.environment,
          release: input.release,
          trace_id: input.traceId,
          date_added: input.dateAdded,
          date_updated: input.dateAdded,
          expected_time: input.expectedTime,
          timeout_at: input.timeoutAt,
        })
        .onConflict((conflict) => conflict.columns(["monitor_id", "guid"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ? toCheckIn(row) : null;
    },
    async getCheckIn(monitorId, guid) {
      const row = await db.selectFrom("monitor_checkins").selectAll().where("monitor_id", "=", rowIdOf(monitorId)).where("guid", "=", guid).executeTakeFirst();
      return row ? toCheckIn(row) : null;
    },
    async latestInProgress(monitorId) {
      const row = await db
        .selectFrom("monitor_checkins")
        .selectAll()
        .where("monitor_id", "=", rowIdOf(monitorId))
        .where("status", "=", "in_progress")
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      return row ? toCheckIn(row) : null;
    },
    async finishCheckIn(id, status, duration, now) {
      const result = await db
        .updateTable("monitor_checkins")
        .set({ status, duration, date_updated: now, timeout_at: null })
        .where("id", "=", rowIdOf(id))
        .where("status", "=", "in_progress")
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
    async listCheckIns(monitorId, limit, before) {
      let query = db.selectFrom("monitor_checkins").selectAll().where("monitor_id", "=", rowIdOf(monitorId));
      if (before !== undefined) query = query.where("id", "<", rowIdOf(before));
      const rows = await query.orderBy("id", "desc").limit(limit).execute();
      return rows.map(toCheckIn);
    },
    async noteCheckIn(id, at) {
      await db
        .updateTable("monitors")
        .set({
          last_checkin: at.time,
          last_status: at.status,
          last_environment: at.environment,
          ...(at.next ? { next_checkin: at.next.nextCheckIn, next_checkin_latest: at.next.nextCheckInLatest } : {}),
        })
        .where("id", "=", rowIdOf(id))
        .execute();
    },
    async overdue(now, limit) {
      const rows = await db
        .selectFrom("monitors")
        .selectAll()
        .where("status", "=", "active")
        .where("next_checkin_latest", "<=", now)
        .orderBy("next_checkin_latest")
        .limit(limit)
        .execute();
      return rows.map(toMonitor);
    },
    async claimMissed(id, seenLatest, next) {
      const result = await db
        .updateTable("monitors")
        .set({ next_checkin: next.nextCheckIn, next_checkin_latest: next.nextCheckInLatest })
        .where("id", "=", rowIdOf(id))
        .where("next_checkin_latest", "=", seenLatest)
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
    async overdueInProgress(now, limit) {
      const rows = await db
        .selectFrom("monitor_checkins")
        .selectAll()
        .where("status", "=", "in_progress")
        .where("timeout_at", "<=", now)
        .orderBy("timeout_at")
        .limit(limit)
        .execute();
      return rows.map(toCheckIn);
    },
    async claimTimeout(checkInId, now) {
      const result = await db
        .updateTable("monitor_checkins")
        .set({ status: "timeout", date_updated: now, timeout_at: null })
        .where("id", "=", rowIdOf(checkInId))
        .where("status", "=", "in_progress")
        .executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
    async countResult(id, failed) {
      const row = await db
        .updateTable("monitors")
        .set(
          failed
            ? { consecutive_failures: sql<number>`consecutive_failures + 1`, consecutive_oks: 0 }
            : { consecutive_oks: sql<number>`consecutive_oks + 1`, consecutive_failures: 0 },
        )
        .where("id", "=", rowIdOf(id))
        .returning(["consecutive_failures", "consecutive_oks", "health"])
        .executeTakeFirst();
      return row ? { consecutiveFailures: Number(row.consecutive_failures), consecutiveOks: Number(row.consecutive_oks), health: row.health as MonitorHealth } : null;
    },
    async moveHealth(id, from, to) {
      const result = await db.updateTable("monitors").set({ health: to }).where("id", "=", rowIdOf(id)).where("health", "=", from).executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
    async setIncidentIssue(id, issueId) {
      await db.updateTable("monitors").set({ incident_issue_id: issueId === null ? null : rowIdOf(issueId) }).where("id", "=", rowIdOf(id)).execute();
    },
    async expireCheckIns(before) {
      const result = await db.deleteFrom("monitor_checkins").where("date_added", "<", before).where("status", "!=", "in_progress").executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
