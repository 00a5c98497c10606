/**
 * A monitor's failures open an issue through the ordinary ingest path: each failed run (error,
 * missed, timed out) while the monitor is failing becomes an error event with a fingerprint of its
 * own per monitor, committed like an SDK's, so the issue list, regressions and alert rules see it.
 * `failure_issue_threshold` consecutive failures open it; `recovery_threshold` oks resolve it.
 */
import { randomUUID } from "node:crypto";
import { processEventPayloadNow } from "../../items/event";
import type { CheckInStatus, IngestRecord, IngestRecordResult, Monitor } from "../../model";
import type { JsonObject } from "../../processing/normalize-values";
import type { Storage } from "../../storage/types";
import { describeSchedule } from "./schedule";

/** Commits records through the same writer SDK envelopes go through. */
export type CommitRecords = (records: IngestRecord[]) => Promise<IngestRecordResult[]>;

/** What the issue is called in Sentry's terms (issue type), carried as a tag and context. */
export const MONITOR_FAILURE_TYPE = "monitor_check_in_failure";

const REASONS: Partial<Record<CheckInStatus, string>> = {
  error: "an error check-in",
  missed: "a missed check-in",
  timeout: "a timed-out check-in",
};

export function failureEventOf(monitor: Monitor, status: CheckInStatus, at: number, environment: string | null): JsonObject {
  return {
    event_id: randomUUID().replaceAll("-", ""),
    timestamp: at / 1000,
    platform: "other",
    level: "error",
    logger: "monitors",
    message: `Cron failure: ${monitor.name}`,
    fingerprint: [MONITOR_FAILURE_TYPE, monitor.id],
    ...(environment ? { environment } : {}),
    tags: { "monitor.slug": monitor.slug, "monitor.check_in_status": status, "issue.type": MONITOR_FAILURE_TYPE },
    contexts: {
      monitor: {
        type: "monitor",
        id: monitor.id,
        slug: monitor.slug,
        name: monitor.name,
        reason: REASONS[status] ?? status,
        schedule: describeSchedule(monitor.config.schedule),
        timezone: monitor.config.timezone ?? "UTC",
      },
    },
  };
}

async function commitFailure(commit: CommitRecords, monitor: Monitor, status: CheckInStatus, at: number, environment: string | null): Promise<string | null> {
  const raw = failureEventOf(monitor, status, at, environment);
  const context = { projectId: monitor.projectId, envelopeHeaders: {}, receivedAt: at, clientIp: undefined, userAgent: undefined, scrubber: null };
  const { records } = processEventPayloadNow(raw, JSON.stringify(raw), context);
  const results = await commit(records);
  const event = results.find((result) => result.kind === "event");
  return event && event.kind === "event" ? event.issueId : null;
}

/**
 * Counts a finished run of the monitor and opens or resolves its issue when a threshold is crossed.
 * Health moves by conditional update, so with several processes one opens the issue.
 */
export async function countRun(storage: Storage, commit: CommitRecords, monitor: Monitor, status: CheckInStatus, at: number, environment: string | null): Promise<void> {
  if (status === "in_progress") return;
  const failed = status !== "ok";
  const counts = await storage.monitors.countResult(monitor.id, failed);
  if (!counts) return;
  if (failed) {
    const threshold = monitor.config.failureIssueThreshold ?? 1;
    let failing = counts.health === "failing";
    if (!failing && counts.consecutiveFailures >= threshold) failing = await storage.monitors.moveHealth(monitor.id, "ok", "failing");
    if (!failing) return;
    const issueId = await commitFailure(commit, monitor, status, at, environment);
    if (issueId !== null && issueId !== monitor.incidentIssueId) await storage.monitors.setIncidentIssue(monitor.id, issueId);
    return;
  }
  if (counts.health !== "failing" || counts.consecutiveOks < (monitor.config.recoveryThreshold ?? 1)) return;
  if (!(await storage.monitors.moveHealth(monitor.id, "failing", "ok"))) return;
  const current = await storage.monitors.getById(monitor.id);
  if (current?.incidentIssueId) await storage.issues.setStatus(current.incidentIssueId, "resolved");
}
