/**
 * The background job that finds runs that did not happen: a monitor whose latest allowed check-in
 * time passed without one gets a `missed` check-in, and a run in progress past its max runtime is
 * marked `timeout`. Its state is the database's (each monitor's next expected time, each run's
 * timeout), so it resumes after a restart; each finding is claimed by a conditional UPDATE, so with
 * several processes on one PostgreSQL exactly one records it.
 */
import { randomUUID } from "node:crypto";
import type { Storage } from "../../storage/types";
import { countRun, type CommitRecords } from "./failures";
import { nextExpected } from "./schedule";

/** At most this many findings per kind per pass, so one pass never holds the loop for long. */
const BATCH = 100;
/** After a long outage a monitor gets at most this many missed runs per pass before it catches up. */
const MAX_MISSES_PER_MONITOR = 10;

export interface DetectionResult {
  missed: number;
  timedOut: number;
}

/** One pass at `now` (Unix ms): what this process found and claimed. */
export async function detectOnce(storage: Storage, commit: CommitRecords, now: number): Promise<DetectionResult> {
  const result: DetectionResult = { missed: 0, timedOut: 0 };
  for (const checkIn of await storage.monitors.overdueInProgress(now, BATCH)) {
    if (!(await storage.monitors.claimTimeout(checkIn.id, now))) continue;
    result.timedOut++;
    const monitor = await storage.monitors.getById(checkIn.monitorId);
    if (!monitor) continue;
    await storage.monitors.noteCheckIn(monitor.id, { time: now, status: "timeout", environment: checkIn.environment });
    await countRun(storage, commit, monitor, "timeout", now, checkIn.environment);
  }
  for (const monitor of await storage.monitors.overdue(now, BATCH)) {
    let expected = monitor.nextCheckIn;
    let latest = monitor.nextCheckInLatest;
    for (let misses = 0; expected !== null && latest !== null && latest <= now; misses++) {
      // Counted from the time that was missed; after many misses in a row, from now (no flood of rows).
      const next = nextExpected(monitor.config, misses + 1 >= MAX_MISSES_PER_MONITOR ? now : expected);
      if (!(await storage.monitors.claimMissed(monitor.id, latest, next))) break;
      result.missed++;
      await storage.monitors.insertCheckIn({
        monitorId: monitor.id,
        projectId: monitor.projectId,
        guid: randomUUID().replaceAll("-", ""),
        status: "missed",
        duration: null,
        environment: monitor.lastEnvironment,
        release: null,
        traceId: null,
        dateAdded: expected,
        expectedTime: expected,
        timeoutAt: null,
      });
      await storage.monitors.noteCheckIn(monitor.id, { time: now, status: "missed", environment: monitor.lastEnvironment });
      await countRun(storage, commit, monitor, "missed", now, monitor.lastEnvironment);
      expected = next.nextCheckIn;
      latest = next.nextCheckInLatest;
    }
  }
  return result;
}

export interface MonitorDetection {
  stop(): Promise<void>;
}

/** Runs `detectOnce` every `everyMs`, one pass at a time; failures are logged and the next pass retries. */
export function startMonitorDetection(storage: Storage, commit: CommitRecords, everyMs: number, warn: (message: string) => void): MonitorDetection {
  let running: Promise<void> | null = null;
  const pass = () => {
    running ??= detectOnce(storage, commit, Date.now())
      .then(() => undefined)
      .catch((error: unknown) => warn(`monitor check-in detection failed, retrying: ${String(error)}`))
      .finally(() => (running = null));
  };
  const timer = setInterval(pass, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
