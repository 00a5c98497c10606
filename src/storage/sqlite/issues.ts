import { decodeCursor, encodeCursor } from "../cursor";
import {
  ISSUE_SORT_COLUMNS,
  SELECT_ISSUE,
  stats24hBuckets,
  stats24hWindow,
  splitIssueSearch,
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

  const mergeOps = sqliteIssueMerge(db);

  return {
    ...mergeOps,
    async getById(id) {
      const row = /^\d+$/.test(id) ? byId.get(Number(id)) : undefined;
      return row ? toIssue(row) : null;
    },

    async query(query: IssueQuery) {
      if (query.projectIds.length === 0) return { items: [], nextCursor: null };
      const column = ISSUE_SORT_COLUMNS[query.sort];
      const where: string[] = [`i.project_id IN (${query.projectIds.map(() => "?").join(", ")})`];
      const params: (string | number)[] = query.projectIds.map(Number);
      if (query.status) {
        where.push("i.status = ?");
        params.push(query.status);
      }
      if (query.level) {
        where.push("i.level = ?");
        params.push(query.level);
      }
      if (query.firstRelease) {
        where.push("i.first_release = ?");
        params.push(query.firstRelease);
      }
      const tagFilters: [string, string][] = [];
      if (query.release) tagFilters.push(["release", query.release]);
      if (query.environment) tagFilters.push(["environment", query.environment]);
      const { tags, phrase } = splitIssueSearch(query.text ?? "");
      tagFilters.push(...tags);
      if (phrase) {
        where.push("(i.title LIKE ? ESCAPE '\\' OR i.culprit LIKE ? ESCAPE '\\' OR (upper(p.slug) || '-' || i.seq) = upper(?))");
        const pattern = `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        params.push(pattern, pattern, phrase);
      }
      for (const [key, value] of tagFilters) {
        where.push("EXISTS (SELECT 1 FROM issue_tags t WHERE t.issue_id = i.id AND t.key = ? AND t.value = ?)");
        params.push(key, value);
      }
      const cursor = query.cursor ? decodeCursor(query.cursor) : null;
      if (cursor) {
        where.push(`(i.${column} < ? OR (i.${column} = ? AND i.id < ?))`);
        params.push(cursor.value, cursor.value, cursor.id);
      }
      const rows = db
        .prepare<(string | number)[], IssueRow>(
          `${SELECT_ISSUE} WHERE ${where.join(" AND ")} ORDER BY i.${column} DESC, i.id DESC LIMIT ?`,
        )
        .all(...params, query.limit + 1);
      const page = rows.slice(0, query.limit);
      const stats = stats24h(page.map((row) => row.id), query.now);
      const items: IssueWithStats[] = page.map((row) => ({ ...toIssue(row), stats24h: stats.get(row.id)! }));
      const last = page[page.length - 1];
      const nextCursor = rows.length > query.limit && last ? encodeCursor({ value: last[column], id: last.id }) : null;
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

    async facets(projectId) {
      const id = Number(projectId);
      return {
        releases: facetValues.all(id, "release").map((row) => row.value),
        environments: facetValues.all(id, "environment").map((row) => row.value),
      };
    },
  };
}
