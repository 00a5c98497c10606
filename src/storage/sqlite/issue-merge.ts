/**
 * Merge, unmerge and hashes on SQLite (issue workflow; see ../issue-merge.ts). Each runs in one
 * immediate transaction on the main-thread connection, so commits (on the commit thread) wait.
 */
import type { IssueDelta } from "../issue-deltas";
import { countersOf, keptRowOf, type KeptIssueRow } from "../issue-merge";
import type { IssueHash } from "../types";
import type { Db } from "./db";

export function sqliteIssueMerge(db: Db) {
  const issueRow = db.prepare<[number], KeptIssueRow & { times_seen: number }>("SELECT * FROM issues WHERE id = ?");
  const redirect = db.prepare<[number, string, string, number, string]>(
    "INSERT OR REPLACE INTO issue_merged_hashes (project_id, grouping_config, hash, issue_id, issue_row) VALUES (?, ?, ?, ?, ?)",
  );
  const moveRedirects = db.prepare<[number, number]>("UPDATE issue_merged_hashes SET issue_id = ? WHERE issue_id = ?");
  const moveEvents = db.prepare<[number, number]>("UPDATE events SET issue_id = ? WHERE issue_id = ?");
  const moveIssueEvents = db.prepare<[number, number]>("UPDATE issue_events SET issue_id = ? WHERE issue_id = ?");
  const mergeUsers = db.prepare<[number, number]>("INSERT OR IGNORE INTO issue_users (issue_id, user_key) SELECT ?, user_key FROM issue_users WHERE issue_id = ?");
  const mergeHours = db.prepare<[number, number]>(
    `INSERT INTO issue_hourly (issue_id, hour, count) SELECT ?, hour, count FROM issue_hourly WHERE issue_id = ? AND true
     ON CONFLICT (issue_id, hour) DO UPDATE SET count = count + excluded.count`,
  );
  const mergeTags = db.prepare<[number, number]>(
    `INSERT INTO issue_tags (issue_id, key, value, count, first_seen, last_seen) SELECT ?, key, value, count, first_seen, last_seen FROM issue_tags WHERE issue_id = ? AND true
     ON CONFLICT (issue_id, key, value) DO UPDATE SET count = count + excluded.count,
       first_seen = MIN(first_seen, excluded.first_seen), last_seen = MAX(last_seen, excluded.last_seen)`,
  );
  const dropCounters = ["DELETE FROM issue_users WHERE issue_id = ?", "DELETE FROM issue_hourly WHERE issue_id = ?", "DELETE FROM issue_tags WHERE issue_id = ?"].map(
    (statement) => db.prepare<[number]>(statement),
  );
  const addTimes = db.prepare<[number, number, number, number, number]>(
    `UPDATE issues SET times_seen = times_seen + ?, first_seen = MIN(first_seen, ?), last_seen = MAX(last_seen, ?),
       user_count = (SELECT COUNT(*) FROM issue_users WHERE issue_id = ?) WHERE id = ?`,
  );
  const deleteIssue = db.prepare<[number]>("DELETE FROM issues WHERE id = ?");
  const ownRedirect = db.prepare<[number, string], { issue_row: string; grouping_config: string }>(
    "SELECT issue_row, grouping_config FROM issue_merged_hashes WHERE issue_id = ? AND hash = ?",
  );
  const dropRedirect = db.prepare<[number, string]>("DELETE FROM issue_merged_hashes WHERE issue_id = ? AND hash = ?");
  const recreate = db.prepare<[Record<string, string | number>]>(
    `INSERT INTO issues (id, project_id, grouping_config, hash, grouping_strategy, seq, title, culprit, level, type, metadata,
       status, substatus, first_seen, last_seen, times_seen)
     VALUES (@id, @project_id, @grouping_config, @hash, @grouping_strategy, @seq, @title, @culprit, @level, @type, @metadata,
       'unresolved', 'ongoing', @first_seen, @last_seen, 0)`,
  );
  const moveHashEvents = db.prepare<[number, number, string]>("UPDATE events SET issue_id = ? WHERE issue_id = ? AND grouping_hash = ?");
  const moveHashIssueEvents = db.prepare<[number, number, number, string]>(
    `UPDATE issue_events SET issue_id = ? WHERE issue_id = ? AND event_id IN (SELECT event_id FROM events WHERE issue_id = ? AND grouping_hash = ?)`,
  );
  const eventsOf = db.prepare<[number], { payload: string | Uint8Array; timestamp: number }>("SELECT payload, timestamp FROM events WHERE issue_id = ?");
  const addUser = db.prepare<[number, string]>("INSERT OR IGNORE INTO issue_users (issue_id, user_key) VALUES (?, ?)");
  const addHour = db.prepare<[number, number, number]>("INSERT INTO issue_hourly (issue_id, hour, count) VALUES (?, ?, ?)");
  const addTag = db.prepare<[number, string, string, number, number, number]>(
    "INSERT INTO issue_tags (issue_id, key, value, count, first_seen, last_seen) VALUES (?, ?, ?, ?, ?, ?)",
  );
  const setCounters = db.prepare<[number, number, number, number, string | null, string | null, number]>(
    "UPDATE issues SET times_seen = ?, user_count = ?, first_seen = ?, last_seen = ?, first_release = ?, last_release = ? WHERE id = ?",
  );
  const hashesOf = db.prepare<[{ id: number }], { hash: string; merged: number; event_id: string | null }>(
    `SELECT h.hash, h.merged, (SELECT e.event_id FROM events e WHERE e.issue_id = @id AND e.grouping_hash = h.hash ORDER BY e.timestamp DESC LIMIT 1) AS event_id
     FROM (SELECT hash, 0 AS merged FROM issues WHERE id = @id UNION ALL SELECT hash, 1 FROM issue_merged_hashes WHERE issue_id = @id) h ORDER BY h.merged, h.hash`,
  );

  function rebuild(issueId: number): void {
    const row = issueRow.get(issueId);
    if (!row) return;
    for (const drop of dropCounters) drop.run(issueId);
    const delta: IssueDelta | null = countersOf(issueId, eventsOf.all(issueId), row.title, row.culprit);
    if (!delta) {
      setCounters.run(0, 0, row.first_seen, row.last_seen, null, null, issueId);
      return;
    }
    for (const user of delta.userKeys) addUser.run(issueId, user);
    for (const [hour, count] of delta.hours) addHour.run(issueId, hour, count);
    for (const tag of delta.tags.values()) addTag.run(issueId, tag.key, tag.value, tag.count, tag.firstSeen, tag.lastSeen);
    setCounters.run(delta.count, delta.userKeys.size, delta.firstSeen, delta.lastSeen, delta.firstRelease, delta.lastRelease, issueId);
  }

  const merge = db.transaction((targetId: number, sourceIds: number[]) => {
    const merged: string[] = [];
    for (const sourceId of sourceIds) {
      const source = issueRow.get(sourceId);
      if (!source || sourceId === targetId) continue;
      moveEvents.run(targetId, sourceId);
      moveIssueEvents.run(targetId, sourceId);
      mergeUsers.run(targetId, sourceId);
      mergeHours.run(targetId, sourceId);
      mergeTags.run(targetId, sourceId);
      for (const drop of dropCounters) drop.run(sourceId);
      addTimes.run(source.times_seen, source.first_seen, source.last_seen, targetId, targetId);
      moveRedirects.run(targetId, sourceId);
      redirect.run(source.project_id, source.grouping_config, source.hash, targetId, keptRowOf(source));
      deleteIssue.run(sourceId);
      merged.push(String(sourceId));
    }
    return merged;
  });

  const unmerge = db.transaction((issueId: number, hash: string): string | null => {
    const kept = ownRedirect.get(issueId, hash);
    if (!kept) return null;
    const row = JSON.parse(kept.issue_row) as KeptIssueRow;
    dropRedirect.run(issueId, hash);
    recreate.run({ ...row });
    moveHashIssueEvents.run(row.id, issueId, issueId, hash);
    moveHashEvents.run(row.id, issueId, hash);
    rebuild(row.id);
    rebuild(issueId);
    return String(row.id);
  });

  return {
    async merge(targetId: string, sourceIds: string[]): Promise<string[]> {
      return merge.immediate(Number(targetId), sourceIds.map(Number));
    },
    async unmergeHash(issueId: string, hash: string): Promise<string | null> {
      return /^\d+$/.test(issueId) ? unmerge.immediate(Number(issueId), hash) : null;
    },
    async hashes(issueId: string): Promise<IssueHash[]> {
      if (!/^\d+$/.test(issueId)) return [];
      return hashesOf.all({ id: Number(issueId) }).map((row) => ({ hash: row.hash, merged: Number(row.merged) === 1, latestEventId: row.event_id }));
    },
  };
}
