import { QUOTA_CATEGORIES, QUOTA_WINDOWS, type Quota, type QuotaCategory, type QuotaWindow } from "../../model";
import type { QuotaCounter, QuotaRepo } from "../types";
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
