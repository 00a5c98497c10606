/**
 * Day partitions of the telemetry tables (declarative RANGE partitioning on a Unix-ms column).
 * A partition is created the first time a commit needs its day — before the commit's transaction,
 * so the brief lock CREATE ... PARTITION OF takes on the parent never sits inside a batch — and
 * retention drops whole days (retention.ts). Every process keeps the set of partitions it knows;
 * a partition another process created or dropped is found by reloading the catalogue.
 */
import type { Queryable } from "./db";

export const DAY_MS = 86_400_000;

/** Allow-list: the only table names that reach partition DDL. */
export const PARTITIONED_TABLES = [
  "events", "transactions", "spans", "outcomes", "session_counts", "session_users",
  // Performance samples (ADR 0022)
  "segment_samples", "vital_samples",
  // Their per-hour rollups (ADR 0022 "Rollups"), by hour.
  "segment_rollups", "vital_rollups",
  // Logs and attachments (issue 38).
  "logs", "attachments",
] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

const NAME = /^([a-z_]+)_p(\d{4})(\d{2})(\d{2})$/;

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export function partitionName(table: PartitionedTable, day: number): string {
  const date = new Date(day);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${table}_p${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}`;
}

export function parsePartitionName(name: string): { table: PartitionedTable; day: number } | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const table = PARTITIONED_TABLES.find((t) => t === match[1]);
  if (!table) return null;
  return { table, day: Date.UTC(Number(match[2]), Number(match[3]) - 1, Number(match[4])) };
}

/** Today's and the next two days' partitions of every table, made ahead so midnight needs no DDL. */
export function upcomingDays(now: number): PartitionNeeds {
  const needs = new PartitionNeeds();
  for (const table of PARTITIONED_TABLES) for (let day = 0; day < 3; day++) needs.add(table, now + day * DAY_MS);
  return needs;
}

/** Which days each table needs, collected while a commit is prepared. */
export class PartitionNeeds {
  readonly days = new Map<PartitionedTable, Set<number>>();

  add(table: PartitionedTable, ms: number): void {
    if (!Number.isFinite(ms)) return;
    let set = this.days.get(table);
    if (!set) this.days.set(table, (set = new Set()));
    set.add(dayOf(ms));
  }
}

/** Thrown inside a commit's transaction when rows need a partition that does not exist yet. */
export class MissingPartitions extends Error {
  constructor(readonly needs: PartitionNeeds) {
    super("partitions missing");
    this.name = "MissingPartitions";
  }
}

export class Partitions {
  private known = new Set<string>();

  /** Re-reads the partitions that exist (in the connection's schema). */
  async reload(db: Queryable): Promise<void> {
    const rows = await db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       JOIN pg_class p ON p.oid = i.inhparent WHERE p.relnamespace = current_schema()::regnamespace`,
    );
    this.known = new Set(rows.map((row) => row.name));
  }

  list(): { table: PartitionedTable; day: number; name: string }[] {
    return [...this.known].flatMap((name) => {
      const parsed = parsePartitionName(name);
      return parsed ? [{ ...parsed, name }] : [];
    });
  }

  /** Creates the partitions in `needs` that do not exist yet (outside any transaction). */
  async ensure(db: Queryable, needs: PartitionNeeds): Promise<void> {
    for (const [table, days] of needs.days) {
      for (const day of days) {
        const name = partitionName(table, day);
        if (this.known.has(name)) continue;
        try {
          await db.query(`CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${table} FOR VALUES FROM (${day}) TO (${day + DAY_MS})`);
        } catch (error) {
          // Another process created it at the same moment (duplicate table / type name).
          const code = (error as { code?: unknown }).code;
          if (code !== "42P07" && code !== "23505") throw error;
        }
        this.known.add(name);
      }
    }
  }

  /** The needs that no known partition covers yet, or null. */
  missing(needs: PartitionNeeds): PartitionNeeds | null {
    const out = new PartitionNeeds();
    let any = false;
    for (const [table, days] of needs.days) {
      for (const day of days) {
        if (this.known.has(partitionName(table, day))) continue;
        out.add(table, day);
        any = true;
      }
    }
    return any ? out : null;
  }

  forget(name: string): void {
    this.known.delete(name);
  }
}
