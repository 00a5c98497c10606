import path from "node:path";
import type { Storage } from "../types";
import { openDatabase } from "./db";
import { sqliteEvents } from "./events";
import { sqliteIngest } from "./ingest";
import { sqliteIssues } from "./issues";
import { sqliteKeys } from "./keys";
import { sqliteOrganizations } from "./organizations";
import { sqliteOutcomes } from "./outcomes";
import { sqliteProjects } from "./projects";
import { sqliteSessions } from "./sessions";
import { sqliteSpans } from "./spans";
import { sqliteTransactions } from "./transactions";

export const SQLITE_FILE_NAME = "periscope.sqlite";

/** The embedded engine: one file in the data directory. */
export function createSqliteStorage(dataDir: string): Storage {
  const db = openDatabase(path.join(dataDir, SQLITE_FILE_NAME));
  return {
    engine: "sqlite",
    organizations: sqliteOrganizations(db),
    projects: sqliteProjects(db),
    keys: sqliteKeys(db),
    issues: sqliteIssues(db),
    events: sqliteEvents(db),
    ingest: sqliteIngest(db),
    outcomes: sqliteOutcomes(db),
    sessions: sqliteSessions(db),
    transactions: sqliteTransactions(db),
    spans: sqliteSpans(db),
    async close() {
      db.close();
    },
  };
}
