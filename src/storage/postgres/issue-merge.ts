/**
 * Merge, unmerge and hashes on PostgreSQL (issue workflow; see ../issue-merge.ts). Each runs in one
 * transaction holding the issue rows (in id order, as the commit path locks them), so a concurrent
 * commit adding to one of them waits rather than updating a deleted row.
 */
import type { IssueDelta } from "../issue-deltas";
import { countersOf, keptRowOf, type KeptIssueRow } from "../issue-merge";
import type { IssueHash } from "../types";
import { isId, type PgDb, type Queryable } from "./db";

type Row = KeptIssueRow & { times_seen: number };

async function rebuild(tx: Queryable, issueId: number): Promise<void> {
  const [row] = await tx.query<Row>("SELECT * FROM issues WHERE id = $1", [issueId]);
  if (!row) return;
  for (const table of ["issue_users", "issue_hourly", "issue_tags"]) await tx.query(`DELETE FROM ${table} WHERE issue_id = $1`, [issueId]);
  const events = await tx.query<{ payload: string; timestamp: number }>("SELECT payload, timestamp FROM events WHERE issue_id = $1", [issueId]);
  const delta: IssueDelta | null = countersOf(issueId, events, row.title, row.culprit);
  if (!delta) {
    await tx.query("UPDATE issues SET times_seen = 0, user_count = 0, first_release = NULL, last_release = NULL WHERE id = $1", [issueId]);
    return;
  }
  for (const user of delta.userKeys) await tx.query("INSERT INTO issue_users (issue_id, user_key) VALUES ($1, $2) ON CONFLICT DO NOTHING", [issueId, user]);
  for (const [hour, count] of delta.hours) await tx.query("INSERT INTO issue_hourly (issue_id, hour, count) VALUES ($1, $2, $3)", [issueId, hour, count]);
  for (const tag of delta.tags.values()) {
    await tx.query("INSERT INTO issue_tags (issue_id, key, value, count, first_seen, last_seen) VALUES ($1, $2, $3, $4, $5, $6)", [
      issueId, tag.key, tag.value, tag.count, tag.firstSeen, tag.lastSeen,
    ]);
  }
  await tx.query("UPDATE issues SET times_seen = $1, user_count = $2, first_seen = $3, last_seen = $4, first_release = $5, last_release = $6 WHERE id = $7", [
    delta.count, delta.userKeys.size, delta.firstSeen, delta.lastSeen, delta.firstRelease, delta.lastRelease, issueId,
  ]);
}

export function postgresIssueMerge(db: PgDb) {
  return {
    async merge(targetId: string, sourceIds: string[]): Promise<string[]> {
      const target = Number(targetId);
      const sources = sourceIds.filter(isId).map(Number).filter((id) => id !== target);
      if (!isId(targetId) || sources.length === 0) return [];
      return db.transaction(async (tx) => {
        await tx.query("SELECT id FROM issues WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE", [[target, ...sources]]);
        const merged: string[] = [];
        for (const sourceId of sources) {
          const [source] = await tx.query<Row>("SELECT * FROM issues WHERE id = $1", [sourceId]);
          if (!source) continue;
          await tx.query("UPDATE events SET issue_id = $1 WHERE issue_id = $2", [target, sourceId]);
          await tx.query("INSERT INTO issue_users (issue_id, user_key) SELECT $1, user_key FROM issue_users WHERE issue_id = $2 ON CONFLICT DO NOTHING", [target, sourceId]);
          await tx.query(
            `INSERT INTO issue_hourly (issue_id, hour, count) SELECT $1, hour, count FROM issue_hourly WHERE issue_id = $2
             ON CONFLICT (issue_id, hour) DO UPDATE SET count = issue_hourly.count + excluded.count`,
            [target, sourceId],
          );
          await tx.query(
            `INSERT INTO issue_tags (issue_id, key, value, count, first_seen, last_seen)
             SELECT $1, key, value, count, first_seen, last_seen FROM issue_tags WHERE issue_id = $2
             ON CONFLICT (issue_id, key, value) DO UPDATE SET count = issue_tags.count + excluded.count,
               first_seen = LEAST(issue_tags.first_seen, excluded.first_seen), last_seen = GREATEST(issue_tags.last_seen, excluded.last_seen)`,
            [target, sourceId],
          );
          for (const table of ["issue_users", "issue_hourly", "issue_tags"]) await tx.query(`DELETE FROM ${table} WHERE issue_id = $1`, [sourceId]);
          await tx.query(
            `UPDATE issues SET times_seen = times_seen + $1, first_seen = LEAST(first_seen, $2), last_seen = GREATEST(last_seen, $3),
               user_count = (SELECT COUNT(*) FROM issue_users WHERE issue_id = $4) WHERE id = $4`,
            [source.times_seen, source.first_seen, source.last_seen, target],
          );
          await tx.query("UPDATE issue_merged_hashes SET issue_id = $1 WHERE issue_id = $2", [target, sourceId]);
          await tx.query(
            `INSERT INTO issue_merged_hashes (project_id, grouping_config, hash, issue_id, issue_row) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (project_id, grouping_config, hash) DO UPDATE SET issue_id = excluded.issue_id, issue_row = excluded.issue_row`,
            [source.project_id, source.grouping_config, source.hash, target, keptRowOf(source)],
          );
          await tx.query("DELETE FROM issues WHERE id = $1", [sourceId]);
          merged.push(String(sourceId));
        }
        return merged;
      });
    },

    async unmergeHash(issueId: string, hash: string): Promise<string | null> {
      if (!isId(issueId)) return null;
      const id = Number(issueId);
      return db.transaction(async (tx) => {
        await tx.query("SELECT id FROM issues WHERE id = $1 FOR UPDATE", [id]);
        const [kept] = await tx.query<{ issue_row: string }>("DELETE FROM issue_merged_hashes WHERE issue_id = $1 AND hash = $2 RETURNING issue_row", [id, hash]);
        if (!kept) return null;
        const row = JSON.parse(kept.issue_row) as KeptIssueRow;
        await tx.query(
          `INSERT INTO issues (id, project_id, grouping_config, hash, grouping_strategy, seq, title, culprit, level, type, metadata,
             status, substatus, first_seen, last_seen, times_seen)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'unresolved', 'ongoing', $12, $13, 0)`,
          [row.id, row.project_id, row.grouping_config, row.hash, row.grouping_strategy, row.seq, row.title, row.culprit, row.level, row.type, row.metadata, row.first_seen, row.last_seen],
        );
        await tx.query("UPDATE events SET issue_id = $1 WHERE issue_id = $2 AND grouping_hash = $3", [row.id, id, hash]);
        await rebuild(tx, row.id);
        await rebuild(tx, id);
        return String(row.id);
      });
    },

    async hashes(issueId: string): Promise<IssueHash[]> {
      if (!isId(issueId)) return [];
      const rows = await db.query<{ hash: string; merged: number; event_id: string | null }>(
        `SELECT h.hash, h.merged, (SELECT e.event_id FROM events e WHERE e.issue_id = $1 AND e.grouping_hash = h.hash ORDER BY e.timestamp DESC LIMIT 1) AS event_id
         FROM (SELECT hash, 0 AS merged FROM issues WHERE id = $1 UNION ALL SELECT hash, 1 FROM issue_merged_hashes WHERE issue_id = $1) h ORDER BY h.merged, h.hash COLLATE "C"`,
        [Number(issueId)],
      );
      return rows.map((row) => ({ hash: row.hash, merged: Number(row.merged) === 1, latestEventId: row.event_id }));
    },
  };
}
