import type { Storage } from "../types";
import { postgresAccounts } from "./accounts";
import { openDatabase, type PgOptions } from "./db";
import { upcomingDays } from "./partitions";
import { postgresEvents } from "./events";
import { postgresIngest } from "./ingest";
import { postgresIssues } from "./issues";
import { postgresKeys } from "./keys";
import { KeyChangeListener } from "./listen";
import { postgresOrganizations } from "./organizations";
import { postgresOutcomes } from "./outcomes";
import { postgresProjects } from "./projects";
import { postgresRetention } from "./retention";
import { postgresSessions } from "./sessions";
import { postgresSpans } from "./spans";
import { postgresTransactions } from "./transactions";

/** The scale-out engine: any number of processes share one PostgreSQL (DATABASE_URL). */
export async function createPostgresStorage(options: PgOptions): Promise<Storage> {
  const db = await openDatabase(options);
  await db.partitions.ensure(db, upcomingDays(Date.now()));
  const keyChanges = new KeyChangeListener(options);
  await keyChanges.start();
  return {
    engine: "postgres",
    organizations: postgresOrganizations(db),
    projects: postgresProjects(db),
    keys: postgresKeys(db),
    issues: postgresIssues(db),
    events: postgresEvents(db),
    // Up to 3 batches in flight, never more than half the pool: the UI and API keep connections.
    ingest: postgresIngest(db, Math.max(1, Math.min(3, Math.floor(options.poolSize / 2)))),
    outcomes: postgresOutcomes(db),
    sessions: postgresSessions(db),
    transactions: postgresTransactions(db),
    spans: postgresSpans(db),
    retention: postgresRetention(db),
    accounts: postgresAccounts(db),
    onKeysChanged: (listener) => keyChanges.subscribe(listener),
    async close() {
      await keyChanges.close();
      await db.close();
    },
  };
}

