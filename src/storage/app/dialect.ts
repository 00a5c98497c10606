/**
 * The one place where the app-data repositories (this folder) meet an engine: Kysely over the
 * SQLite connection or the PostgreSQL pool the engine already has, plus the few differences that
 * remain once the SQL is generated per dialect (ADR 0011).
 *
 * No Kysely transaction ever runs on SQLite. better-sqlite3 is synchronous and the main-thread
 * connection is shared with hand-written code (issue reads and status, retention, ingest when the
 * commit thread is off); a Kysely transaction awaits between its statements, so that code's writes
 * could land inside it (and be rolled back with it). So every check-and-change is ONE statement
 * (INSERT ... SELECT ... WHERE, a conditional UPDATE or DELETE): atomic on SQLite by itself, since
 * SQLite runs one writer at a time. PostgreSQL runs that same statement inside a transaction after
 * the locks that make it safe under READ COMMITTED, where each statement has its own snapshot.
 */
import type Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type Compilable, type PostgresCursor, type PostgresPool, type PostgresQueryResult } from "kysely";
import type pg from "pg";
import { AppError } from "../../errors";
import { isRetryable, isUnavailable, storableParams, unavailable, type Param } from "../postgres/db";
import { KEYS_CHANNEL } from "../postgres/listen";
import type { AppDatabase } from "./schema";

export type AppQueries = Kysely<AppDatabase>;

/** What a violated constraint means to the caller: a taken unique name, or a row that does not exist. */
export type ConstraintKind = "unique" | "missing";

export interface AppDialect {
  readonly db: AppQueries;
  /**
   * Runs `statement`, one statement that checks and changes at once, so that no concurrent change
   * slips between its check and its write. SQLite: as it is (one writer at a time). PostgreSQL: in
   * a transaction, after `lock` (PostgreSQL-only row or table locks), retried on deadlock.
   */
  guarded<T>(lock: (trx: AppQueries) => Promise<unknown>, statement: (q: AppQueries) => Promise<T>): Promise<T>;
  /**
   * Runs `write` (one statement creating a project or key) and tells every key cache that may hold
   * it: SQLite, this process's listeners (one process owns the file); PostgreSQL, every process's,
   * by NOTIFY in the same transaction (delivered on commit, see postgres/listen.ts).
   */
  announcingKeys<T>(kind: "project" | "key" | "privacy" | "quota", write: (q: AppQueries) => Promise<T>): Promise<T>;
  /**
   * Runs several statements all or none (a release with its projects, a bundle with its files).
   * SQLite: compiled by Kysely, then run synchronously in one better-sqlite3 transaction, so no
   * other code on the shared connection can run between them (ADR 0011: never a Kysely
   * transaction there). PostgreSQL: one transaction, retried on deadlock. Values one statement
   * needs from another (a new row's id) come from subqueries, since nothing is returned.
   */
  atomically(statements: readonly Compilable[]): Promise<void>;
  constraintKind(error: unknown): ConstraintKind | null;
  /** What tells equal rows apart in a table without a key (login_failures). */
  readonly rowAddress: "rowid" | "ctid";
}

/** Over the engine's main-thread connection (sqlite/db.ts); `keysChanged` calls this process's key-cache listeners. */
export function sqliteDialect(database: Database.Database, keysChanged: () => void): AppDialect {
  const db = new Kysely<AppDatabase>({ dialect: new SqliteDialect({ database }) });
  return {
    db,
    guarded: (_lock, statement) => statement(db),
    async announcingKeys(_kind, write) {
      const result = await write(db);
      keysChanged();
      return result;
    },
    async atomically(statements) {
      const compiled = statements.map((statement) => statement.compile());
      database.transaction(() => {
        for (const query of compiled) database.prepare(query.sql).run(...query.parameters);
      })();
    },
    constraintKind(error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") return "unique";
      if (code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "SQLITE_CONSTRAINT_NOTNULL") return "missing";
      return null;
    },
    rowAddress: "rowid",
  };
}

/** Over the engine's pool (postgres/db.ts): its BIGINT parsing, timeouts and connection limit apply. */
export function postgresDialect(pool: pg.Pool): AppDialect {
  const db = new Kysely<AppDatabase>({ dialect: new PostgresDialect({ pool: asKyselyPool(pool) }) });
  const inTransaction = async <T>(fn: (trx: AppQueries) => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction().execute(fn);
      } catch (error) {
        if (attempt < 5 && isRetryable(error)) continue;
        throw error;
      }
    }
  };
  return {
    db,
    guarded: (lock, statement) =>
      inTransaction(async (trx) => {
        await lock(trx);
        return statement(trx);
      }),
    announcingKeys: (kind, write) =>
      inTransaction(async (trx) => {
        const result = await write(trx);
        await sql`SELECT pg_notify(${KEYS_CHANNEL}, ${kind})`.execute(trx);
        return result;
      }),
    async atomically(statements) {
      const compiled = statements.map((statement) => statement.compile());
      await inTransaction(async (trx) => {
        for (const query of compiled) await trx.executeQuery(query);
      });
    },
    constraintKind(error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code === "23505") return "unique";
      if (code === "23503" || code === "23502") return "missing";
      return null;
    },
    rowAddress: "ctid",
  };
}

/**
 * The pool as Kysely's driver takes it, with what postgres/db.ts does to every query of its own: an
 * unreachable server becomes AppError("unavailable") (503 + Retry-After), NUL in text becomes U+FFFD.
 */
function asKyselyPool(pool: pg.Pool): PostgresPool {
  const mapped = (error: unknown): unknown => (isUnavailable(error) ? unavailable(error) : error);
  return {
    async connect() {
      const client = await pool.connect().catch((error: unknown) => Promise.reject(mapped(error)));
      function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
      function query<R>(text: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
      function query<R>(text: string | PostgresCursor<R>, parameters: readonly unknown[] = []): PostgresCursor<R> | Promise<PostgresQueryResult<R>> {
        if (typeof text !== "string") throw new Error("the app-data repositories stream no results");
        // Kysely binds only the scalars the repositories pass (strings, numbers, null).
        return client.query<R & object>(text, storableParams(parameters as readonly Param[]) as unknown[]).then(
          (result) => ({ command: result.command as PostgresQueryResult<R>["command"], rowCount: result.rowCount ?? 0, rows: result.rows }),
          (error: unknown) => Promise.reject(mapped(error)),
        );
      }
      return { query, release: (destroy?: boolean) => client.release(destroy) };
    },
    end: () => pool.end(),
  };
}

/** Maps a constraint violation to the AppError the repository contract promises; rethrows anything else. */
export function rethrowConstraint(dialect: AppDialect, error: unknown, messages: Partial<Record<ConstraintKind, string>>): never {
  const kind = dialect.constraintKind(error);
  const message = kind ? messages[kind] : undefined;
  if (kind === "unique" && message) throw new AppError("conflict", message);
  if (kind === "missing" && message) throw new AppError("not_found", message);
  throw error;
}

/** A decimal row id; anything else (a slug, garbage from a URL) becomes -1, which names no row (ids start at 1). */
export function rowIdOf(id: string): number {
  return /^\d{1,15}$/.test(id) ? Number(id) : -1;
}
