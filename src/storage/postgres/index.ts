import { postgresPerformance } from "./performance";
import { appData } from "../app";
import { sqlKeyRates } from "../app/key-rates";
import { postgresQuotaCounter } from "./quota-counts";
import { tableBlobStore } from "../app/blobs";
import { postgresDialect } from "../app/dialect";
import type { Storage } from "../types";
import { openDatabase, type PgOptions } from "./db";
import { upcomingDays } from "./partitions";
import { postgresEvents } from "./events";
import { postgresIngest } from "./ingest";
import { postgresIssues } from "./issues";
import { postgresLogs } from "./logs";
import { ensureLogTextIndex } from "./log-text-index";
import { postgresAttachments } from "./attachments";
import { KeyChangeListener } from "./listen";
import { postgresOutcomes } from "./outcomes";
import { postgresReleaseActivity } from "./releases";
import { postgresRetention } from "./retention";
import { postgresSessions } from "./sessions";
import { postgresSpans } from "./spans";
import { postgresTransactions } from "./transactions";

/** The scale-out engine: any number of processes share one PostgreSQL (DATABASE_URL). */
export async function createPostgresStorage(options: PgOptions): Promise<Storage> {
  const db = await openDatabase(options);
  await db.partitions.ensure(db, upcomingDays(Date.now()));
  const logTextIndex = await ensureLogTextIndex(db);
  if (!logTextIndex.trigram) {
    options.onStartupNotice?.(`log search has no trigram index (${logTextIndex.reason}): a text search matching few lines reads the whole time range`);
  }
  const keyChanges = new KeyChangeListener(options);
  await keyChanges.start();
  // App data over the same pool; its key and project writes NOTIFY the listener above (src/storage/app/dialect.ts).
  const dialect = postgresDialect(db.pool);
  const app = appData(dialect, tableBlobStore(dialect.db));
  return {
    engine: "postgres",
    organizations: app.organizations,
    projects: app.projects,
    keys: app.keys,
    projectOptions: app.projectOptions,
    keyRates: sqlKeyRates(dialect),
    privacy: app.privacy,
    // Issue search (issue 35).
    savedSearches: app.savedSearches,
    // Quotas (issue 33 item 4).
    quotas: app.quotas,
    quotaCounts: postgresQuotaCounter(db),
    issues: postgresIssues(db),
    events: postgresEvents(db),
    // Up to 3 batches in flight, never more than half the pool: the UI and API keep connections.
    ingest: postgresIngest(db, Math.max(1, Math.min(3, Math.floor(options.poolSize / 2)))),
    outcomes: postgresOutcomes(db),
    sessions: postgresSessions(db),
    transactions: postgresTransactions(db),
    spans: postgresSpans(db),
    performance: postgresPerformance(db),
    logs: postgresLogs(db, logTextIndex),
    attachments: postgresAttachments(db),
    retention: postgresRetention(db),
    accounts: app.accounts,
    releases: app.releases,
    releaseActivity: postgresReleaseActivity(db),
    artifacts: app.artifacts,
    // Cron monitors and user feedback.
    monitors: app.monitors,
    feedback: app.feedback,
    issueTriage: app.issueTriage,
    alerts: app.alerts,
    onKeysChanged: (listener) => keyChanges.subscribe(listener),
    async ping() {
      await db.query("SELECT 1");
    },
    async close() {
      await keyChanges.close();
      await db.close();
    },
  };
}

