import { encodeCursor } from "../cursor";
import { issueListSql, sqliteDialect, type SqlValue } from "../issue-search-sql";
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
import { sqliteIssueMerge } from "./issue-merge";
import type { IssueQuery, IssueRepo, IssueWithStats, TagDistribution } from "../types";
import type { Db } from "./db";

export function sqliteIssues(db: Db): IssueRepo {
  const byId = db.prepare<[number], IssueRow>(`${SELECT_ISSUE} WHERE i.id = ?`);
  const updateStatus = db.prepare<[string, string, string | null, number]>(
    "UPDATE issues SET status = ?, substatus = ?, status_details = ? WHERE id = ?",
  );
  const snoozed = db.prepare<[], { id: number; status_details: string | null }>(
    "SELECT id, status_details FROM issues WHERE status = 'ignored' AND status_details IS NOT NULL",
  );
  const wake = db.prepare<[number]>(
    "UPDATE issues SET status = 'unresolved', substatus = 'ongoing', status_details = NULL WHERE id = ? AND status = 'ignored'",
  );
  const wakeActivity = db.prepare<[number, number]>(
    `INSERT INTO issue_activity (issue_id, type, user_id, data, date_created) VALUES (?, 'set_unresolved', NULL, '{"reason":"ignoreUntil"}', ?)`,
  );
  const unreview = db.prepare<[number]>("DELETE FROM issue_reviews WHERE issue_id = ?");
  const maxHourly = db.prepare<[number, number], { n: number | null }>("SELECT MAX(count) AS n FROM issue_hourly WHERE issue_id = ? AND hour >= ?");
  const deleteStatements = [
    "DELETE FROM issue_events WHERE issue_id = ?",
    "DELETE FROM events WHERE issue_id = ?",
    "DELETE FROM issue_users WHERE issue_id = ?",
    "DELETE FROM issue_hourly WHERE issue_id = ?",
    "DELETE FROM issue_tags WHERE issue_id = ?",
    "DELETE FROM issue_merged_hashes WHERE issue_id = ?",
  ].map((statement) => db.prepare<[number]>(statement));
  const deleteIssue = db.prepare<[number]>("DELETE FROM issues WHERE id = ?");
  const deleteAll = db.transaction((ids: number[]) => {
    const deleted: string[] = [];
    for (const id of ids) {
      if (deleteIssue.run(id).changes === 0) continue;
      for (const statement of deleteStatements) statement.run(id);
      deleted.push(String(id));
    }
    return deleted;
  });
  const wakeAll = db.transaction((ids: number[], now: number) => {
    const woken: string[] = [];
    for (const id of ids) {
      if (wake.run(id).changes === 0) continue;
      wakeActivity.run(id, now);
      unreview.run(id);
      woken.push(String(id));
    }
    return woken;
  });
  const tagKeys = db.prepare<[number], { key: string; total: number }>(
    "SELECT key, SUM(count) AS total FROM issue_tags WHERE issue_id = ? GROUP BY key ORDER BY key",
  );
  const topValues = db.prepare<[number, string, number], { value: string; count: number; first_seen: number; last_seen: number }>(
    "SELECT value, count, first_seen, last_seen FROM issue_tags WHERE issue_id = ? AND key = ? ORDER BY count DESC, value LIMIT ?",
  );
  // Issue tag values (issue 35): a page of one key's values, and how many there are.
  const valuesPage = db.prepare<[number, string, number, number], { value: string; count: number; first_seen: number; last_seen: number }>(
    "SELECT value, count, first_seen, last_seen FROM issue_tags WHERE issue_id = ? AND key = ? ORDER BY count DESC, value LIMIT ? OFFSET ?",
  );
  const valueCount = db.prepare<[number, string], { n: number }>("SELECT COUNT(*) AS n FROM issue_tags WHERE issue_id = ? AND key = ?");
  const facetValues = db.prepare<[number, string], { value: string }>(
    `SELECT DISTINCT t.value FROM issue_tags t JOIN issues i ON i.id = t.issue_id
     WHERE i.project_id = ? AND t.key = ? ORDER BY t.value LIMIT 200`,
  );

  /** The 24 hourly buckets of every listed issue, in one query. */
  function stats24h(issueIds: number[], now: number): Map<number, number[]> {
    const { firstHour, lastHour } = stats24hWindow(now);
    if (issueIds.length === 0) return new Map();
    const rows = db
      .prepare<number[], HourlyRow>(
        `SELECT issue_id, hour, count FROM issue_hourly WHERE issue_id IN (${issueIds.map(() => "?").join(", ")}) AND hour >= ? AND hour <= ?`,
      )
      .all(...issueIds, firstHour, lastHour);
    return stats24hBuckets(issueIds, rows, firstHour);
  }

  /** The 14 daily buckets of every listed issue (Sentry's 14d sparkline), in one query. */
  function stats14d(issueIds: number[], now: number): Map<number, number[]> {
    const { firstDay, lastDay } = stats14dWindow(now);
    if (issueIds.length === 0) return new Map();
    const rows = db
      .prepare<number[], HourlyRow>(
        `SELECT issue_id, hour, count FROM issue_hourly WHERE issue_id IN (${issueIds.map(() => "?").join(", ")}) AND hour >= ? AND hour < ?`,
      )
      .all(...issueIds, firstDay, lastDay + 86_400_000);
    return stats14dBuckets(issueIds, rows, firstDay);
  }

  const mergeOps = sqliteIssueMerge(db);

  return {
    ...mergeOps,
    async getById(id) {
      const row = /^\d+$/.test(id) ? byId.get(Number(id)) : undefined;
      return row ? toIssue(row) : null;
    },

    async query(query: IssueQuery) {
      if (query.projectIds.length === 0) return { items: [], nextCursor: null };
      const { sql, params } = issueListSql(query, query.projectIds.map(Number), sqliteDialect);
      const rows = db.prepare<SqlValue[], IssueRow & { sort_value: number }>(sql).all(...params);
      const page = rows.slice(0, query.limit);
      const stats = stats24h(page.map((row) => row.id), query.now);
      const daily = query.stats14d ? stats14d(page.map((row) => row.id), query.now) : null;
      const items: IssueWithStats[] = page.map((row) => ({ ...toIssue(row), stats24h: stats.get(row.id)!, ...(daily ? { stats14d: daily.get(row.id)! } : {}) }));
      const last = page[page.length - 1];
      const nextCursor = rows.length > query.limit && last ? encodeCursor({ value: last.sort_value, id: last.id }) : null;
      return { items, nextCursor };
    },

    async setStatus(id, status, details = null) {
      if (!/^\d+$/.test(id)) return null;
      updateStatus.run(status, substatusFor(status, details), details ? JSON.stringify(details) : null, Number(id));
      const row = byId.get(Number(id));
      return row ? toIssue(row) : null;
    },

    async deleteIssues(ids) {
      return deleteAll.immediate(ids.filter((id) => /^\d+$/.test(id)).map(Number));
    },

    async wakeExpired(now) {
      return wakeAll.immediate(expiredSnoozes(snoozed.all(), now), now);
    },

    async maxHourlyCount(issueId, since) {
      return /^\d+$/.test(issueId) ? (maxHourly.get(Number(issueId), since)?.n ?? 0) : 0;
    },

    async tagDistribution(issueId, limitPerKey) {
      const id = Number(issueId);
      return tagKeys.all(id).map(
        ({ key, total }): TagDistribution => ({
          key,
          totalValues: total,
          topValues: topValues.all(id, key, limitPerKey).map((row) => ({
            value: row.value,
            count: row.count,
            firstSeen: row.first_seen,
            lastSeen: row.last_seen,
          })),
        }),
      );
    },

    async tagValues(issueId, key, page) {
      if (!/^\d+$/.test(issueId)) return { values: [], uniqueValues: 0 };
      const id = Number(issueId);
      const values = valuesPage.all(id, key, page.limit, page.offset).map((row) => ({ value: row.value, count: row.count, firstSeen: row.first_seen, lastSeen: row.last_seen }));
      return { values, uniqueValues: valueCount.get(id, key)!.n };
    },

    async facets(projectId) {
      const id = Number(projectId);
      return {
        releases: facetValues.all(id, "release").map((row) => row.value),
        environments: facetValues.all(id, "environment").map((row) => row.value),
      };
    },
  };
}
