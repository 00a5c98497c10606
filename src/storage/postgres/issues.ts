import { encodeCursor } from "../cursor";
import { issueListSql, postgresDialect } from "../issue-search-sql";
import {
  SELECT_ISSUE,
  stats14dBuckets,
  stats14dWindow,
  stats24hBuckets,
  stats24hWindow,
  toIssue,
  type HourlyRow,
  type IssueRow,
} from "../rows";
import { expiredSnoozes, substatusFor } from "../issue-reopen";
import { postgresIssueMerge } from "./issue-merge";
import type { Issue, IssueQuery, IssueRepo, IssueWithStats, TagDistribution } from "../types";
import { isId, type PgDb } from "./db";

export function postgresIssues(db: PgDb): IssueRepo {
  async function getById(id: string): Promise<Issue | null> {
    if (!isId(id)) return null;
    const [row] = await db.query<IssueRow>(`${SELECT_ISSUE} WHERE i.id = $1`, [Number(id)]);
    return row ? toIssue(row) : null;
  }

  /** The 24 hourly buckets of every listed issue, in one query. */
  async function stats24h(issueIds: number[], now: number): Promise<Map<number, number[]>> {
    const { firstHour, lastHour } = stats24hWindow(now);
    if (issueIds.length === 0) return new Map();
    const rows = await db.query<HourlyRow>(
      "SELECT issue_id, hour, count FROM issue_hourly WHERE issue_id = ANY($1::bigint[]) AND hour >= $2 AND hour <= $3",
      [issueIds, firstHour, lastHour],
    );
    return stats24hBuckets(issueIds, rows, firstHour);
  }

  /** The 14 daily buckets of every listed issue (Sentry's 14d sparkline), in one query. */
  async function stats14d(issueIds: number[], now: number): Promise<Map<number, number[]>> {
    const { firstDay, lastDay } = stats14dWindow(now);
    if (issueIds.length === 0) return new Map();
    const rows = await db.query<HourlyRow>(
      "SELECT issue_id, hour, count FROM issue_hourly WHERE issue_id = ANY($1::bigint[]) AND hour >= $2 AND hour < $3",
      [issueIds, firstDay, lastDay + 86_400_000],
    );
    return stats14dBuckets(issueIds, rows, firstDay);
  }

  async function facet(projectId: number, key: string): Promise<string[]> {
    const rows = await db.query<{ value: string }>(
      `SELECT t.value FROM issue_tags t JOIN issues i ON i.id = t.issue_id
       WHERE i.project_id = $1 AND t.key = $2 GROUP BY t.value ORDER BY t.value COLLATE "C" LIMIT 200`,
      [projectId, key],
    );
    return rows.map((row) => row.value);
  }

  return {
    ...postgresIssueMerge(db),
    getById,

    async query(query: IssueQuery) {
      const projectIds = query.projectIds.filter(isId).map(Number);
      if (projectIds.length === 0) return { items: [], nextCursor: null };
      const { sql, params } = issueListSql(query, projectIds, postgresDialect);
      const rows = await db.query<IssueRow & { sort_value: number }>(sql, params);
      const page = rows.slice(0, query.limit);
      const stats = await stats24h(page.map((row) => row.id), query.now);
      const daily = query.stats14d ? await stats14d(page.map((row) => row.id), query.now) : null;
      const items: IssueWithStats[] = page.map((row) => ({ ...toIssue(row), stats24h: stats.get(row.id)!, ...(daily ? { stats14d: daily.get(row.id)! } : {}) }));
      const last = page.at(-1);
      const nextCursor = rows.length > query.limit && last ? encodeCursor({ value: last.sort_value, id: last.id }) : null;
      return { items, nextCursor };
    },

    async setStatus(id, status, details = null) {
      if (!isId(id)) return null;
      await db.query("UPDATE issues SET status = $1, substatus = $2, status_details = $3 WHERE id = $4", [
        status, substatusFor(status, details), details ? JSON.stringify(details) : null, Number(id),
      ]);
      return getById(id);
    },

    async deleteIssues(ids) {
      const wanted = ids.filter(isId).map(Number);
      if (wanted.length === 0) return [];
      return db.transaction(async (tx) => {
        const deleted = (await tx.query<{ id: number }>("DELETE FROM issues WHERE id = ANY($1::bigint[]) RETURNING id", [wanted])).map((row) => Number(row.id));
        if (deleted.length === 0) return [];
        // Event id claims go too, so a resent event is stored again rather than taken for a duplicate.
        await tx.query(
          `DELETE FROM event_ids c USING events e
           WHERE e.issue_id = ANY($1::bigint[]) AND c.project_id = e.project_id AND c.event_id = e.event_id`,
          [deleted],
        );
        for (const table of ["events", "issue_users", "issue_hourly", "issue_tags", "issue_merged_hashes"]) {
          await tx.query(`DELETE FROM ${table} WHERE issue_id = ANY($1::bigint[])`, [deleted]);
        }
        return deleted.map(String);
      });
    },

    async wakeExpired(now) {
      const rows = await db.query<{ id: number; status_details: string | null }>(
        "SELECT id, status_details FROM issues WHERE status = 'ignored' AND status_details IS NOT NULL",
      );
      const ids = expiredSnoozes(rows, now);
      if (ids.length === 0) return [];
      return db.transaction(async (tx) => {
        const woken = await tx.query<{ id: number }>(
          "UPDATE issues SET status = 'unresolved', substatus = 'ongoing', status_details = NULL WHERE id = ANY($1::bigint[]) AND status = 'ignored' RETURNING id",
          [ids],
        );
        const wokenIds = woken.map((row) => Number(row.id));
        if (wokenIds.length > 0) {
          await tx.query(
            `INSERT INTO issue_activity (issue_id, type, user_id, data, date_created)
             SELECT id, 'set_unresolved', NULL, '{"reason":"ignoreUntil"}', $2 FROM unnest($1::bigint[]) AS w(id)`,
            [wokenIds, now],
          );
          await tx.query("DELETE FROM issue_reviews WHERE issue_id = ANY($1::bigint[])", [wokenIds]);
        }
        return wokenIds.map(String);
      });
    },

    async maxHourlyCount(issueId, since) {
      if (!isId(issueId)) return 0;
      const [row] = await db.query<{ n: number | string | null }>("SELECT MAX(count) AS n FROM issue_hourly WHERE issue_id = $1 AND hour >= $2", [
        Number(issueId), since,
      ]);
      return Number(row?.n ?? 0);
    },

    async tagDistribution(issueId, limitPerKey) {
      if (!isId(issueId)) return [];
      const id = Number(issueId);
      const keys = await db.query<{ key: string; total: number }>(
        `SELECT key, SUM(count) AS total FROM issue_tags WHERE issue_id = $1 GROUP BY key ORDER BY key COLLATE "C"`,
        [id],
      );
      const values = await db.query<{ key: string; value: string; count: number; first_seen: number; last_seen: number }>(
        `SELECT key, value, count, first_seen, last_seen FROM (
           SELECT *, row_number() OVER (PARTITION BY key ORDER BY count DESC, value COLLATE "C") AS n FROM issue_tags WHERE issue_id = $1
         ) ranked WHERE n <= $2 ORDER BY key COLLATE "C", n`,
        [id, limitPerKey],
      );
      return keys.map(
        ({ key, total }): TagDistribution => ({
          key,
          totalValues: total,
          topValues: values
            .filter((row) => row.key === key)
            .map((row) => ({ value: row.value, count: row.count, firstSeen: row.first_seen, lastSeen: row.last_seen })),
        }),
      );
    },

    async tagValues(issueId, key, page) {
      if (!isId(issueId)) return { values: [], uniqueValues: 0 };
      const id = Number(issueId);
      const rows = await db.query<{ value: string; count: number; first_seen: number; last_seen: number }>(
        `SELECT value, count, first_seen, last_seen FROM issue_tags WHERE issue_id = $1 AND key = $2
         ORDER BY count DESC, value COLLATE "C" LIMIT $3 OFFSET $4`,
        [id, key, page.limit, page.offset],
      );
      const [total] = await db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM issue_tags WHERE issue_id = $1 AND key = $2", [id, key]);
      return { values: rows.map((row) => ({ value: row.value, count: row.count, firstSeen: row.first_seen, lastSeen: row.last_seen })), uniqueValues: total?.n ?? 0 };
    },

    async facets(projectId) {
      if (!isId(projectId)) return { releases: [], environments: [] };
      const id = Number(projectId);
      return { releases: await facet(id, "release"), environments: await facet(id, "environment") };
    },
  };
}
