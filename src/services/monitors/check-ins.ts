/**
 * Stores a check-in an SDK sent (src/items/check-in.ts): creates or updates the monitor from its
 * config, records or finishes the run, moves the next expected time on and counts the result.
 * Runs before the envelope is answered, so an acknowledged check-in is stored.
 */
import type { CheckInInput, Monitor } from "../../model";
import type { Storage } from "../../storage/types";
import { AppError } from "../../errors";
import { NIL_CHECK_IN_ID, type CheckInSink } from "../../items/check-in";
import { countRun, type CommitRecords } from "./failures";
import { MonitorConfigError, nextExpected, timeoutAt, validateMonitorConfig } from "./schedule";

/** The monitor the check-in names, created or updated from its config; a refusal reason otherwise. */
async function monitorFor(storage: Storage, projectId: string, input: CheckInInput, now: number): Promise<Monitor | string> {
  const project = await storage.projects.getById(projectId);
  if (!project) return "project_not_found";
  let config = null;
  if (input.config) {
    try {
      config = validateMonitorConfig(input.config);
    } catch (error) {
      if (error instanceof MonitorConfigError) return error.reason;
      throw error;
    }
  }
  const existing = await storage.monitors.getBySlug(project.organizationId, input.monitorSlug);
  if (existing) {
    if (existing.projectId !== projectId) return "monitor_not_found";
    if (!config || JSON.stringify(config) === JSON.stringify(existing.config)) return existing;
    return (await storage.monitors.update(existing.id, { config })) ?? existing;
  }
  if (!config) return "monitor_not_found";
  try {
    return await storage.monitors.create({
      organizationId: project.organizationId,
      projectId,
      slug: input.monitorSlug,
      name: input.monitorSlug,
      config,
      status: "active",
      // Expected from the first check-in on (below), as in Sentry.
      nextCheckIn: null,
      nextCheckInLatest: null,
      dateCreated: now,
    });
  } catch (error) {
    // Another process created it between our read and our insert.
    if (error instanceof AppError && error.code === "conflict") return (await storage.monitors.getBySlug(project.organizationId, input.monitorSlug)) ?? "monitor_not_found";
    throw error;
  }
}

export async function recordCheckIn(storage: Storage, commit: CommitRecords, projectId: string, input: CheckInInput, now: number): Promise<string | null> {
  const monitor = await monitorFor(storage, projectId, input, now);
  if (typeof monitor === "string") return monitor;
  if (monitor.status === "disabled") return "monitor_disabled";
  // An update of a run already recorded (all zeros: the monitor's latest run in progress).
  const previous =
    input.guid === NIL_CHECK_IN_ID ? await storage.monitors.latestInProgress(monitor.id) : await storage.monitors.getCheckIn(monitor.id, input.guid);
  if (previous) {
    if (input.status === "in_progress") return null; // a repeated start changes nothing
    const duration = input.duration ?? Math.max(0, now - previous.dateAdded);
    if (!(await storage.monitors.finishCheckIn(previous.id, input.status, duration, now))) return "checkin_finished";
    await storage.monitors.noteCheckIn(monitor.id, { time: now, status: input.status, environment: input.environment });
    await countRun(storage, commit, monitor, input.status, now, input.environment);
    return null;
  }
  if (input.guid === NIL_CHECK_IN_ID) return "checkin_not_found";
  const inserted = await storage.monitors.insertCheckIn({
    monitorId: monitor.id,
    projectId,
    guid: input.guid,
    status: input.status,
    duration: input.status === "in_progress" ? null : input.duration,
    environment: input.environment,
    release: input.release,
    traceId: input.traceId,
    dateAdded: now,
    expectedTime: monitor.nextCheckIn,
    timeoutAt: input.status === "in_progress" ? timeoutAt(monitor, now) : null,
  });
  if (!inserted) return null; // the same check-in again (a retry): stored once
  await storage.monitors.noteCheckIn(monitor.id, { time: now, status: input.status, environment: input.environment, next: nextExpected(monitor.config, now) });
  await countRun(storage, commit, monitor, input.status, now, input.environment);
  return null;
}

/**
 * The ingest side's handle (src/items/check-in.ts). Check-ins of one monitor are stored one after
 * another in arrival order: an SDK sends a run's start and its finish as separate requests, often
 * moments apart, and the finish must not be read before the start (with its config) is stored.
 */
export function checkInSink(storage: Storage, commit: CommitRecords): CheckInSink {
  const queues = new Map<string, Promise<unknown>>();
  return {
    record(projectId, input, receivedAt) {
      const key = `${projectId}\u0000${input.monitorSlug}`;
      const previous = queues.get(key) ?? Promise.resolve();
      const run = previous.catch(() => undefined).then(() => recordCheckIn(storage, commit, projectId, input, receivedAt));
      queues.set(key, run);
      void run.finally(() => {
        if (queues.get(key) === run) queues.delete(key);
      }).catch(() => undefined);
      return run;
    },
  };
}
