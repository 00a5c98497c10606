import Database from "better-sqlite3";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { prepareDatabaseFile } from "./file-mode";

export type Db = Database.Database;

const migrationsDir = path.join(import.meta.dirname, "..", "migrations", "sqlite");

/**
 * Opens (creating if needed) the database file and applies pending migrations in one transaction each.
 * WAL lets UI reads run beside the writer; synchronous=FULL makes every commit durable before the
 * ingest door answers 200 (group commit keeps that affordable).
 */
export function openDatabase(file: string): Db {
  if (file !== ":memory:") prepareDatabaseFile(file);
  const db = openConnection(file);
  migrate(db);
  return db;
}

/** A further connection to a database openDatabase has already created and migrated (the checkpoint thread). */
export function openConnection(file: string): Db {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  return db;
}

/**
 * Opens the database in a worker thread. better-sqlite3's errors reach the main thread's "error"
 * event without their message; a plain Error keeps it.
 */
export function openInThread(file: string, open: (file: string) => Db): Db {
  try {
    return open(file);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(`cannot open ${file}: ${error instanceof Error ? error.message : String(error)}${typeof code === "string" ? ` (${code})` : ""}`);
  }
}

function migrate(db: Db): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const applied = new Set(
    db.prepare<[], { version: string }>("SELECT version FROM schema_migrations").all().map((row) => row.version),
  );
  const pending = readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .filter((name) => !applied.has(name));
  for (const name of pending) {
    const sql = readFileSync(path.join(migrationsDir, name), "utf8");
    db.transaction(() => {
      db.exec(sql);
      db.prepare("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)").run(name, Date.now());
    })();
  }
}
