import type { PgDb } from "./db";

export const LOG_TEXT_INDEX = "logs_body_trgm";

/** Whether the logs' full-text filter has a trigram index, and why not when it has none. */
export type LogTextIndex = { trigram: true } | { trigram: false; reason: string };

/**
 * At startup (not in a migration, so that a server which gains pg_trgm later gets the index on its
 * next start): a GIN trigram index on the log body lets a search that matches few lines skip the
 * whole time window. pg_trgm is trusted since PostgreSQL 13, so a database owner may create it;
 * where it is missing or not allowed the search stays a scan in time order, and the caller logs why.
 */
export async function ensureLogTextIndex(db: PgDb): Promise<LogTextIndex> {
  return db.transaction(async (tx) => {
    // Several processes (or test schemas of one database) may boot at once: one at a time here.
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('periscope.migrations', 0))");
    const existing = await tx.query("SELECT 1 FROM pg_indexes WHERE schemaname = current_schema() AND indexname = $1", [LOG_TEXT_INDEX]);
    if (existing.length > 0) return { trigram: true };
    const available = await tx.query<{ installed: string | null }>(
      "SELECT installed_version AS installed FROM pg_available_extensions WHERE name = 'pg_trgm'",
    );
    if (available.length === 0) return { trigram: false, reason: "the pg_trgm extension is not available on the PostgreSQL server (it ships with PostgreSQL's contrib modules)" };
    if (available[0]!.installed === null) {
      // In `public` when allowed, so that dropping one schema of a shared database does not drop
      // the extension (and the other schemas' indexes with it).
      const [publicSchema] = await tx.query<{ writable: boolean }>(
        "SELECT has_schema_privilege(oid, 'CREATE') AS writable FROM pg_namespace WHERE nspname = 'public'",
      );
      try {
        await tx.query("SAVEPOINT trgm");
        await tx.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm${publicSchema?.writable ? " SCHEMA public" : ""}`);
        await tx.query("RELEASE SAVEPOINT trgm");
      } catch (error) {
        await tx.query("ROLLBACK TO SAVEPOINT trgm");
        return { trigram: false, reason: `CREATE EXTENSION pg_trgm failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    const [extension] = await tx.query<{ schema: string }>("SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'");
    // On an installation with logs already stored this reads them all once (the first start after
    // upgrading; log commits wait for it): no statement timeout.
    await tx.query("SET LOCAL statement_timeout = 0");
    // regnamespace's text is already quoted where it needs to be.
    await tx.query(`CREATE INDEX IF NOT EXISTS ${LOG_TEXT_INDEX} ON logs USING gin (body ${extension!.schema}.gin_trgm_ops)`);
    return { trigram: true };
  });
}
