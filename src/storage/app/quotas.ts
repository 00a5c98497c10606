import { sql } from "kysely";
import { QUOTA_CATEGORIES, QUOTA_WINDOWS, type Quota, type QuotaCategory, type QuotaWindow } from "../../model";
import type { QuotaCount, QuotaCounter, QuotaRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";

/** project_id of an organisation's own quotas. */
const ORGANIZATION_ROW = 0;

const isCategory = (text: string): text is QuotaCategory => (QUOTA_CATEGORIES as readonly string[]).includes(text);
const isWindow = (text: string): text is QuotaWindow => (QUOTA_WINDOWS as readonly string[]).includes(text);

/** Rows a newer version wrote with a category or window this one does not know are skipped, not misread. */
function quotasOf(rows: { category: string; time_window: string; quota_limit: number }[]): Quota[] {
  const quotas: Quota[] = [];
  for (const row of rows) {
    if (isCategory(row.category) && isWindow(row.time_window)) quotas.push({ category: row.category, window: row.time_window, limit: Number(row.quota_limit) });
  }
  return quotas.sort((a, b) => QUOTA_CATEGORIES.indexOf(a.category) - QUOTA_CATEGORIES.indexOf(b.category) || QUOTA_WINDOWS.indexOf(a.window) - QUOTA_WINDOWS.indexOf(b.window));
}

/** Quotas per organisation and project. Writes are announced like key writes: the ingest key cache holds each project's quotas. */
export function appQuotas(dialect: AppDialect): QuotaRepo {
  const { db } = dialect;
  const scopeRow = (projectId: string | null) => (projectId === null ? ORGANIZATION_ROW : rowIdOf(projectId));
  return {
    async list(organizationId, projectId) {
      const rows = await db
        .selectFrom("quotas")
        .select(["category", "time_window", "quota_limit"])
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("project_id", "=", scopeRow(projectId))
        .execute();
      return quotasOf(rows);
    },
    async forProject(organizationId, projectId) {
      const rows = await db
        .selectFrom("quotas")
        .select(["project_id", "category", "time_window", "quota_limit"])
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("project_id", "in", [ORGANIZATION_ROW, rowIdOf(projectId)])
        .execute();
      return {
        project: quotasOf(rows.filter((row) => Number(row.project_id) !== ORGANIZATION_ROW)),
        organization: quotasOf(rows.filter((row) => Number(row.project_id) === ORGANIZATION_ROW)),
      };
    },
    async replace(organizationId, projectId, quotas) {
      const organization = rowIdOf(organizationId);
      const project = scopeRow(projectId);
      const statements = [db.deleteFrom("quotas").where("organization_id", "=", organization).where("project_id", "=", project)];
      const insert =
        quotas.length === 0
          ? null
          : db.insertInto("quotas").values(quotas.map((quota) => ({ organization_id: organization, project_id: project, category: quota.category, time_window: quota.window, quota_limit: quota.limit })));
      // One transaction for the swap, then the announcement that empties every process's key cache.
      await dialect.atomically(insert ? [...statements, insert] : statements);
      await dialect.announcingKeys("quota", async () => undefined);
    },
  };
}

type CountEntry = QuotaCount & { amount: number; limit: number };

/**
 * Quota counters on PostgreSQL: one row per counter and window in a table every process shares,
 * added to by a conditional upsert that adds only when the new count stays within the limit, so N
 * processes cannot accept N times a quota. Requests that arrive while a statement is in flight are
 * coalesced: the next statement adds each counter's summed amount, one round trip for all of them
 * (measured: one statement per request cost ≈ 200 µs of CPU per request and a third of the
 * throughput at 32 connections). A summed amount that does not fit is retried entry by entry, so
 * whatever fits is still taken exactly.
 */
export function sqlQuotaCounter(dialect: AppDialect): QuotaCounter {
  const { db } = dialect;

  /** One conditional upsert of these (distinct) counters; resolves with the ones added. */
  async function upsert(entries: readonly CountEntry[]): Promise<Set<string>> {
    // Rows in one order in every statement: two statements locking the same rows cannot deadlock.
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.windowStart - b.windowStart));
    const result = await sql<{ name: string; window_start: number; count: number }>`
      INSERT INTO quota_counts AS c (name, window_start, count, quota_limit)
      SELECT * FROM unnest(${sorted.map((e) => e.name)}::text[], ${sorted.map((e) => e.windowStart)}::bigint[], ${sorted.map((e) => e.amount)}::bigint[], ${sorted.map((e) => e.limit)}::bigint[])
      ON CONFLICT (name, window_start) DO UPDATE SET count = c.count + excluded.count, quota_limit = excluded.quota_limit
      WHERE c.count + excluded.count <= excluded.quota_limit
      RETURNING name, window_start, count`.execute(db);
    const added = new Set<string>();
    const fresh: string[] = [];
    for (const row of result.rows) {
      const key = `${row.name}\n${Number(row.window_start)}`;
      added.add(key);
      const entry = sorted.find((e) => e.name === row.name && e.windowStart === Number(row.window_start));
      if (entry && Number(row.count) === entry.amount) fresh.push(row.name);
    }
    // The first addition of a window clears its counters' older windows: one row per counter stays.
    if (fresh.length > 0) {
      const before = Math.min(...sorted.map((e) => e.windowStart));
      await db.deleteFrom("quota_counts").where("name", "in", fresh).where("window_start", "<", before).execute();
    }
    return added;
  }

  interface Call {
    entries: readonly CountEntry[];
    resolve: (added: boolean[]) => void;
    reject: (error: unknown) => void;
  }
  let waiting: Call[] = [];
  let running = false;

  async function run(calls: Call[]): Promise<void> {
    const keyOf = (e: QuotaCount) => `${e.name}\n${e.windowStart}`;
    // Summed per counter; an amount past its limit alone never goes to the database.
    const merged = new Map<string, CountEntry & { parts: number }>();
    for (const call of calls) {
      for (const entry of call.entries) {
        if (entry.amount > entry.limit) continue;
        const known = merged.get(keyOf(entry));
        if (known) {
          known.amount += entry.amount;
          known.parts++;
        } else merged.set(keyOf(entry), { name: entry.name, windowStart: entry.windowStart, amount: entry.amount, limit: entry.limit, parts: 1 });
      }
    }
    const added = merged.size > 0 ? await upsert([...merged.values()]) : new Set<string>();
    // Counters whose sum did not fit but that several entries shared: each entry on its own, in order.
    const retried = new Map<CountEntry, boolean>();
    for (const call of calls) {
      for (const entry of call.entries) {
        const sum = merged.get(keyOf(entry));
        if (!sum || added.has(keyOf(entry)) || sum.parts === 1) continue;
        retried.set(entry, (await upsert([entry])).has(keyOf(entry)));
      }
    }
    for (const call of calls) {
      call.resolve(call.entries.map((entry) => retried.get(entry) ?? (entry.amount <= entry.limit && added.has(keyOf(entry)))));
    }
  }

  function drain(): void {
    if (running || waiting.length === 0) return;
    const calls = waiting;
    waiting = [];
    running = true;
    run(calls)
      .catch((error: unknown) => calls.forEach((call) => call.reject(error)))
      .finally(() => {
        running = false;
        drain();
      });
  }

  return {
    tryAdd(entries) {
      return new Promise((resolve, reject) => {
        waiting.push({ entries, resolve, reject });
        drain();
      });
    },
    async release(entries) {
      for (const entry of entries) {
        await db
          .updateTable("quota_counts")
          .set({ count: sql<number>`greatest(count - ${entry.amount}, 0)` })
          .where("name", "=", entry.name)
          .where("window_start", "=", entry.windowStart)
          .execute();
      }
    },
    async current(entries) {
      if (entries.length === 0) return [];
      const rows = await db
        .selectFrom("quota_counts")
        .select(["name", "window_start", "count"])
        .where("name", "in", entries.map((entry) => entry.name))
        .execute();
      return entries.map((entry) => Number(rows.find((row) => row.name === entry.name && Number(row.window_start) === entry.windowStart)?.count ?? 0));
    },
  };
}

/** SQLite: one process owns the file, so the counts live in its memory (synchronous, hence atomic) and cost no write. */
export function memoryQuotaCounter(): QuotaCounter {
  const counts = new Map<string, { windowStart: number; count: number }>();
  const countOf = (name: string, windowStart: number) => {
    const current = counts.get(name);
    return current && current.windowStart === windowStart ? current.count : 0;
  };
  return {
    tryAdd(entries) {
      return Promise.resolve(
        entries.map((entry) => {
          const count = countOf(entry.name, entry.windowStart) + entry.amount;
          if (count > entry.limit) return false;
          counts.set(entry.name, { windowStart: entry.windowStart, count });
          return true;
        }),
      );
    },
    release(entries) {
      for (const entry of entries) {
        const current = counts.get(entry.name);
        if (current && current.windowStart === entry.windowStart) current.count = Math.max(0, current.count - entry.amount);
      }
      return Promise.resolve();
    },
    current(entries) {
      return Promise.resolve(entries.map((entry) => countOf(entry.name, entry.windowStart)));
    },
  };
}
