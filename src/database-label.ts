/**
 * Which database a configuration opens, said in one line for people: the server prints it at start
 * and the CLI on stderr, so an operator sees at once when a process did not get the environment they
 * meant (another DATA_DIR, no DATABASE_URL). Never holds the password.
 */
import path from "node:path";
import type { Config } from "./config";
import { SQLITE_FILE_NAME } from "./storage/sqlite";

export function sqliteFileOf(dataDir: string): string {
  return path.join(dataDir, SQLITE_FILE_NAME);
}

/** "SQLite at /abs/data/periscope.sqlite" or "PostgreSQL at host:port/db". */
export function databaseLabel(config: Pick<Config, "database" | "dataDir">): string {
  if (config.database.engine === "sqlite") return `SQLite at ${sqliteFileOf(config.dataDir)}`;
  return `PostgreSQL at ${postgresAddress(config.database.url)}`;
}

/** host:port/database of a libpq-style URL, without user or password; a socket directory given as ?host= counts as the host. */
function postgresAddress(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(an unparsable DATABASE_URL)";
  }
  const host = decodeURIComponent(parsed.hostname) || parsed.searchParams.get("host") || "localhost";
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, "")) || decodeURIComponent(parsed.username) || "postgres";
  return `${host}:${parsed.port || "5432"}/${database}`;
}
