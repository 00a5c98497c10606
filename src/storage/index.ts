/**
 * Chooses the storage engine from the configuration: the embedded SQLite file in DATA_DIR, or a
 * shared PostgreSQL when DATABASE_URL is set (connected and migrated here, hence async). Also runs
 * retention: once shortly after start and then hourly, telemetry older than RETENTION_DAYS expires
 * (and expired login sessions and day-old failed-login records go).
 */
import type { Config } from "../config";
import { createPostgresStorage } from "./postgres";
import { createSqliteStorage } from "./sqlite";
import type { Storage } from "./types";

const DAY_MS = 86_400_000;
const RETENTION_EVERY_MS = 3_600_000;
const RETENTION_FIRST_AFTER_MS = 60_000;

export interface StorageLog {
  info(message: string): void;
  warn(message: string): void;
}

export async function createStorage(config: Config, log?: StorageLog): Promise<Storage> {
  const storage =
    config.database.engine === "postgres"
      ? await createPostgresStorage({
          url: config.database.url,
          poolSize: config.database.poolSize,
          onIdleError: (error) => log?.warn(`PostgreSQL connection lost (the pool reconnects by itself): ${error.message}`),
          onStartupNotice: (message) => log?.warn(message),
        })
      : createSqliteStorage(config.dataDir, {
          topology: config.ingest.engine === "sqlite" ? config.ingest : undefined,
          onCommitThreadStopped: (reason) => log?.warn(`${reason}; its open commits failed (503), and the first commit after a second starts it again`),
          onCheckpointProblem: (reason) => log?.warn(`${reason}; the database connections checkpoint by themselves past 4,000 WAL pages meanwhile`),
        });
  return withSnoozeSweep(withRetention(storage, config.retentionDays, log), log);
}

/** Wraps `close` so the retention timer stops with the storage. */
function withRetention(storage: Storage, days: number, log?: StorageLog): Storage {
  let running: Promise<void> | null = null;
  const pass = () => {
    running ??= storage.retention
      .expire(Date.now() - days * DAY_MS)
      .then(async (result) => {
        // Ended sessions and failed-login records past the throttle window are no longer needed.
        await storage.accounts.loginSessions.deleteExpired(Date.now());
        await storage.accounts.loginThrottle.deleteBefore(Date.now() - DAY_MS);
        // Cron check-ins are kept as long as telemetry; the monitors themselves stay.
        await storage.monitors.expireCheckIns(Date.now() - days * DAY_MS);
        if (result.deletedRows > 0 || result.droppedPartitions > 0) {
          log?.info(`retention: expired telemetry older than ${days} days (${result.droppedPartitions} partitions dropped, ${result.deletedRows} rows deleted)`);
        }
      })
      .catch((error: unknown) => log?.warn(`retention pass failed, retrying in an hour: ${String(error)}`))
      .finally(() => (running = null));
  };
  const first = setTimeout(pass, RETENTION_FIRST_AFTER_MS);
  const every = setInterval(pass, RETENTION_EVERY_MS);
  first.unref();
  every.unref();
  return {
    ...storage,
    async close() {
      clearTimeout(first);
      clearInterval(every);
      await running;
      await storage.close();
    },
  };
}

// Issue workflow: issues ignored for a duration come back when it ends, even without new events.
const SNOOZE_SWEEP_MS = 60_000;

/** Wraps `close` so the sweep timer stops with the storage. */
function withSnoozeSweep(storage: Storage, log?: StorageLog): Storage {
  let running: Promise<unknown> | null = null;
  const every = setInterval(() => {
    running ??= storage.issues
      .wakeExpired(Date.now())
      .catch((error: unknown) => log?.warn(`ignored-issue sweep failed, retrying in a minute: ${String(error)}`))
      .finally(() => (running = null));
  }, SNOOZE_SWEEP_MS);
  every.unref();
  return {
    ...storage,
    async close() {
      clearInterval(every);
      await running;
      await storage.close();
    },
  };
}
