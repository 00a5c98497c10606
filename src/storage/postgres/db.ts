import pg from "pg";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { AppError } from "../../errors";
import { Partitions } from "./partitions";

const migrationsDir = path.join(import.meta.dirname, "..", "migrations", "postgres");

/** Oldest server we run on: declarative partitioning with partitioned indexes and ON CONFLICT on them. */
export const MIN_SERVER_VERSION = 130000;

/** The database cannot be used at startup (unreachable, refused, too old): the message says why, no stack needed. */
export class DatabaseStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseStartupError";
  }
}

export type Row = object;

/** Ids are decimal BIGINTs; anything else (a slug, garbage in a URL) names no row, without a query error. */
export const isId = (id: string): boolean => /^\d{1,15}$/.test(id);
export const idsOf = (ids: string[]): number[] => ids.filter(isId).map(Number);
export type Param = string | number | boolean | null | Uint8Array | readonly (string | number | boolean | null)[];

/** Something that runs SQL: the pool (one statement) or a client inside a transaction. */
export interface Queryable {
  query<T extends Row>(sql: string, params?: readonly Param[]): Promise<T[]>;
}

export interface PgDb extends Queryable {
  pool: pg.Pool;
  partitions: Partitions;
  /** Runs `fn` in one transaction; retried (whole) on deadlock or serialization failure. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface PgOptions {
  /** libpq-style URL; query parameters such as `sslmode` or `options=-c search_path=...` apply to every connection. */
  url: string;
  poolSize: number;
  /** Called with errors of idle clients (a restarted server); the pool replaces them by itself. */
  onIdleError?: (error: Error) => void;
  /** Called at startup with what works less well on this server and why (logs' text index, issue 38). */
  onStartupNotice?: (message: string) => void;
}

// BIGINT and NUMERIC (SUM of BIGINT) as JS numbers: our ids and counters stay far below 2^53.
const INT8_OID = 20;
const NUMERIC_OID = 1700;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === INT8_OID || oid === NUMERIC_OID
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format ?? "text")) as pg.CustomTypesConfig["getTypeParser"],
};

/** SQLSTATE classes and driver messages that mean "the database is not reachable right now". */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (/^(08|57P0[1-3]|53300)/.test(code)) return true;
    if (["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE", "EAI_AGAIN"].includes(code)) return true;
  }
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|server closed the connection/i.test(error.message);
}

export function unavailable(error: unknown): AppError {
  return new AppError("unavailable", "the database is unavailable, retry shortly", [String(error)], 5);
}

const RETRYABLE = new Set(["40P01", "40001"]);

/** A deadlock or serialization failure: the whole transaction may simply run again. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && RETRYABLE.has(code);
}

/** PostgreSQL's text cannot hold NUL (error 22021); SQLite's can. */
const NUL = "\u0000";
const REPLACEMENT_CHARACTER = "\uFFFD";
const holdsNul = (value: unknown): value is string => typeof value === "string" && value.includes(NUL);
const storable = <V>(value: V): V => (holdsNul(value) ? (value.replaceAll(NUL, REPLACEMENT_CHARACTER) as V) : value);

/**
 * NUL in any string parameter becomes U+FFFD, as undecodable bytes do: an SDK can send "\u0000" in
 * a tag or a message, and one such value must not fail the whole batch it is committed in. Copies
 * only the parameters that hold one.
 */
export function storableParams(params: readonly Param[]): readonly Param[] {
  if (!params.some((value) => (Array.isArray(value) ? value.some(holdsNul) : holdsNul(value)))) return params;
  return params.map((value) => (Array.isArray(value) ? value.map(storable) : storable(value)));
}

async function run<T extends Row>(client: pg.Pool | pg.PoolClient, sql: string, params?: readonly Param[]): Promise<T[]> {
  try {
    const result = await client.query(sql, params && (storableParams(params) as unknown[]));
    return result.rows as T[];
  } catch (error) {
    throw isUnavailable(error) ? unavailable(error) : error;
  }
}

export function createPool(options: PgOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    types,
    // Fail fast instead of hanging when the server is gone; the caller answers 503 + Retry-After.
    connectionTimeoutMillis: 5_000,
    statement_timeout: 30_000,
    query_timeout: 35_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client whose server went away emits "error"; without a listener the process would crash.
  pool.on("error", (error) => options.onIdleError?.(error));
  return pool;
}

/** Connects, checks the server version, applies pending migrations (one process at a time). */
export async function openDatabase(options: PgOptions): Promise<PgDb> {
  const pool = createPool(options);
  try {
    const [version] = await run<{ server_version_num: string }>(pool, "SHOW server_version_num");
    if (Number(version?.server_version_num) < MIN_SERVER_VERSION) {
      throw new DatabaseStartupError(
        `PostgreSQL at ${redact(options.url)} is version ${version?.server_version_num}, too old: Periscope needs PostgreSQL 13 or newer`,
      );
    }
    await migrate(pool);
  } catch (error) {
    await pool.end();
    if (error instanceof AppError || (error as { code?: unknown }).code === "28P01" || (error as { code?: unknown }).code === "3D000") {
      // Unreachable, wrong password, no such database: the operator's to fix, so say exactly that.
      const cause = error instanceof AppError ? (error.causes[0] ?? error.message) : String(error);
      throw new DatabaseStartupError(`cannot use PostgreSQL at ${redact(options.url)} (DATABASE_URL): ${cause}`);
    }
    throw error;
  }
  const db: PgDb = {
    pool,
    partitions: new Partitions(),
    query: (sql, params) => run(pool, sql, params),
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (error) {
          throw isUnavailable(error) ? unavailable(error) : error;
        }
        let broken = false;
        try {
          await run(client, "BEGIN");
          const result = await fn({ query: (sql, params) => run(client, sql, params) });
          await run(client, "COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => (broken = true));
          if (attempt < 5 && isRetryable(error)) continue;
          throw error;
        } finally {
          client.release(broken);
        }
      }
    },
    async close() {
      await pool.end();
    },
  };
  await db.partitions.reload(db);
  return db;
}

export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}

async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    // Several processes may boot at once: one applies the migrations, the others wait and see them done.
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('periscope.migrations', 0))");
    await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)");
    const applied = new Set((await client.query<{ version: string }>("SELECT version FROM schema_migrations")).rows.map((r) => r.version));
    const pending = readdirSync(migrationsDir).filter((name) => name.endsWith(".sql")).sort().filter((name) => !applied.has(name));
    for (const name of pending) {
      await client.query(readFileSync(path.join(migrationsDir, name), "utf8"));
      await client.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)", [name, Date.now()]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
