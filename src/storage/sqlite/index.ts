import { sqlitePerformance } from "./performance";
import path from "node:path";
import { memoryQuotaCounter } from "../app/quotas";
import { memoryKeyRates } from "../app/key-rates";
import { appData } from "../app";
import { fileBlobStore } from "../app/blobs";
import { sqliteDialect } from "../app/dialect";
import type { SqliteTopology } from "../../config";
import type { Storage } from "../types";
import { FALLBACK_CHECKPOINT_PAGES } from "./checkpoint.main";
import { SqliteCommitThread } from "./commit.main";
import { openDatabase } from "./db";
import { sqliteEvents } from "./events";
import { sqliteIngest } from "./ingest";
import { sqliteIssues } from "./issues";
import { sqliteLogs } from "./logs";
import { sqliteAttachments } from "./attachments";
import { sqliteOutcomes } from "./outcomes";
import { sqliteReleaseActivity } from "./releases";
import { sqliteRetention } from "./retention";
import { sqliteSessions } from "./sessions";
import { sqliteSpans } from "./spans";
import { sqliteTransactions } from "./transactions";

export const SQLITE_FILE_NAME = "periscope.sqlite";

export interface SqliteStorageOptions {
  /** Where ingest commits run (Config.ingest); defaults to inline, on the calling thread. */
  topology?: SqliteTopology;
  /** The commit thread stopped unexpectedly; after a second the next commit starts it again. */
  onCommitThreadStopped?(reason: string): void;
  /** A checkpoint on that thread failed, or the thread stopped. */
  onCheckpointProblem?(reason: string): void;
  /** How often a commit merges issue_events (issue-events.ts); for tests, which need both states. */
  issueEventsMergeMs?: number;
}

/** The embedded engine: one file in the data directory. */
export function createSqliteStorage(dataDir: string, options: SqliteStorageOptions = {}): Storage {
  const file = path.join(dataDir, SQLITE_FILE_NAME);
  // Opened (and migrated) first: the commit thread's connection then finds the schema in place.
  const db = openDatabase(file);
  const topology = options.topology ?? { engine: "sqlite", commits: "inline" };
  const onThread = topology.commits === "thread" ? topology : null;
  const checkpoints = onThread?.checkpointIntervalMs ? { intervalMs: onThread.checkpointIntervalMs, onProblem: options.onCheckpointProblem } : undefined;
  // A UI or retention write would otherwise checkpoint on the main thread whenever the WAL, which
  // now runs between 1,000 and 4,000 pages, passes SQLite's default.
  if (checkpoints) db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
  const commitThread = onThread ? new SqliteCommitThread(file, { onStopped: options.onCommitThreadStopped, checkpoints, issueEventsMergeMs: options.issueEventsMergeMs }) : null;
  // One process owns the file, so key and project changes only need to reach this process's listeners.
  const keyListeners = new Set<() => void>();
  const app = appData(sqliteDialect(db, () => keyListeners.forEach((listener) => listener())), fileBlobStore(dataDir));
  return {
    engine: "sqlite",
    organizations: app.organizations,
    projects: app.projects,
    keys: app.keys,
    projectOptions: app.projectOptions,
    keyRates: memoryKeyRates(),
    privacy: app.privacy,
    // Issue search (issue 35).
    savedSearches: app.savedSearches,
    // Quotas (issue 33 item 4).
    quotas: app.quotas,
    quotaCounts: memoryQuotaCounter(),
    issues: sqliteIssues(db),
    events: sqliteEvents(db),
    ingest: commitThread ?? sqliteIngest(db, { mergeEveryMs: options.issueEventsMergeMs }),
    outcomes: sqliteOutcomes(db),
    sessions: sqliteSessions(db),
    transactions: sqliteTransactions(db),
    spans: sqliteSpans(db),
    performance: sqlitePerformance(db),
    logs: sqliteLogs(db),
    attachments: sqliteAttachments(db),
    retention: sqliteRetention(db),
    accounts: app.accounts,
    releases: app.releases,
    releaseActivity: sqliteReleaseActivity(db),
    artifacts: app.artifacts,
    // Cron monitors and user feedback.
    monitors: app.monitors,
    feedback: app.feedback,
    issueTriage: app.issueTriage,
    alerts: app.alerts,
    onKeysChanged(listener) {
      keyListeners.add(listener);
      return () => keyListeners.delete(listener);
    },
    async ping() {
      db.prepare("SELECT 1").get();
    },
    async close() {
      await commitThread?.close();
      db.close();
    },
  };
}

