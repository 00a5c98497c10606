import { readSpanContainers } from "../../items/span-containers";
import { feedValuesOf } from "../alert-feed";
import { attachmentOutcomes } from "../attachment-outcomes";
import { IssueDeltas, OutcomeSums, type IssueDelta } from "../issue-deltas";
import { reopenIssues } from "./issue-reopen";
import { packPayload } from "../stored-payload";
import type { IngestRecordResult, IngestStore } from "../types";
import { decodeTags, toHandedRecord, type CommitRecord, type EventCommit } from "./commit-records";
import { spanGroupsOf } from "./span-groups";
import type { Db } from "./db";
import type { TouchedRow } from "../issue-reopen";
import { issueEventsWriter, type IssueEventsOptions } from "./issue-events";
import { tagUpserts } from "./tag-upserts";
import { sqliteTelemetryIngest } from "./telemetry-ingest";

/** The write path in this thread, on this connection. */
export function sqliteIngest(db: Db, options: IssueEventsOptions = {}): IngestStore {
  const committer = sqliteCommitter(db, options);
  return {
    async commit(records) {
      const read = readSpanContainers(records.map(toHandedRecord), spanGroupsOf);
      return read.answer(committer.commit(read.records));
    },
  };
}

export interface SqliteCommitter {
  /** Writes the batch in one transaction; results in input order. */
  commit(records: CommitRecord[]): IngestRecordResult[];
}

/**
 * One call = one transaction = one fsync, however many records: the group-commit writer in
 * src/ingest/writer.ts batches concurrent requests into a call, and the per-issue counters are
 * summed over the batch (IssueDeltas) before they are written. Synchronous, so it runs on whichever
 * thread owns the connection: the main thread (sqliteIngest) or the commit thread (commit.thread.ts).
 */
export function sqliteCommitter(db: Db, options: IssueEventsOptions = {}): SqliteCommitter {
  const existingEvent = db.prepare<[number, string], { issue_id: number }>(
    "SELECT issue_id FROM events WHERE project_id = ? AND event_id = ?",
  );
  const findIssue = db.prepare<[number, string, string], { id: number }>(
    "SELECT id FROM issues WHERE project_id = ? AND grouping_config = ? AND hash = ?",
  );
  // An issue merged into another left its hash here (issue workflow): read only for a grouping no issue has.
  const mergedHash = db.prepare<[number, string, string], { id: number }>(
    "SELECT issue_id AS id FROM issue_merged_hashes WHERE project_id = ? AND grouping_config = ? AND hash = ?",
  );
  const nextSeq = db.prepare<[number], { last_issue_seq: number }>(
    "UPDATE projects SET last_issue_seq = last_issue_seq + 1 WHERE id = ? RETURNING last_issue_seq",
  );
  // Created with no events: the batch's delta adds them, like for any existing issue.
  const insertIssue = db.prepare<
    [number, string, string, string, number, string, string, string, string, string, number, number],
    { id: number }
  >(
    `INSERT INTO issues (project_id, grouping_config, hash, grouping_strategy, seq, title, culprit, level, type,
       metadata, first_seen, last_seen, times_seen)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0) RETURNING id`,
  );
  // An unresolved issue created in this batch stays "new"; one that existed before becomes "ongoing".
  // Whether a resolved or ignored issue comes back is decided from what this returns (issue-reopen.ts).
  const applyDelta = db.prepare<[Record<string, number | string | null>], TouchedRow>(
    `UPDATE issues SET
       times_seen = times_seen + @count,
       user_count = user_count + @newUsers,
       first_seen = MIN(first_seen, @firstSeen),
       last_seen = MAX(last_seen, @lastSeen),
       -- Only a batch at least as new as the issue changes what it shows (SET sees the old row).
       title = CASE WHEN @lastSeen >= last_seen THEN @title ELSE title END,
       culprit = CASE WHEN @lastSeen >= last_seen THEN @culprit ELSE culprit END,
       level = CASE WHEN @lastSeen >= last_seen THEN @level ELSE level END,
       first_release = CASE WHEN @firstSeen < first_seen THEN COALESCE(@firstRelease, first_release)
                            ELSE COALESCE(first_release, @firstRelease) END,
       last_release = CASE WHEN @lastSeen >= last_seen THEN COALESCE(@lastRelease, last_release) ELSE last_release END,
       substatus = CASE WHEN status = 'unresolved' AND substatus = 'new' AND times_seen > 0 THEN 'ongoing' ELSE substatus END
     WHERE id = @issueId
     RETURNING id, project_id, status, status_details, times_seen, user_count`,
  );
  // Alerts (issue 34): the issue's change, with its status before this batch (NULL: created by it).
  const feedIssue = db.prepare<[Record<string, number | string | null>]>(
    `INSERT INTO alert_issue_feed (issue_id, project_id, prev_status, count, users, level, release, tags, committed)
     SELECT id, project_id, CASE WHEN times_seen = 0 THEN NULL ELSE status END, @count, @users, @level, @release, @tags, @committed
     FROM issues WHERE id = @issueId`,
  );
  const addUser = db.prepare<[number, string]>("INSERT OR IGNORE INTO issue_users (issue_id, user_key) VALUES (?, ?)");
  const bumpHour = db.prepare<[number, number, number]>(
    `INSERT INTO issue_hourly (issue_id, hour, count) VALUES (?, ?, ?)
     ON CONFLICT (issue_id, hour) DO UPDATE SET count = count + excluded.count`,
  );
  const bumpTags = tagUpserts(db);
  const insertEvent = db.prepare<[number, string, number, string, number, number, string | Uint8Array, number, string | null]>(
    `INSERT INTO events (project_id, event_id, issue_id, grouping_hash, timestamp, received, payload, committed, trace_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, event_id) DO NOTHING`,
  );
  const issueEvents = issueEventsWriter(db, options);
  const bumpOutcome = db.prepare<[number, number, string, string, string, number]>(
    `INSERT INTO outcomes (project_id, hour, outcome, category, reason, quantity) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (project_id, hour, outcome, category, reason) DO UPDATE SET quantity = quantity + excluded.quantity`,
  );

  /** Issue ids found or created in this transaction, by project, config and hash: a batch often repeats an issue. */
  type IssueIds = Map<string, number>;

  const duplicateOf = (projectId: number, eventId: string): IngestRecordResult | null => {
    const existing = existingEvent.get(projectId, eventId);
    return existing ? { kind: "event", issueId: String(existing.issue_id), duplicate: true } : null;
  };

  function writeEvent(record: EventCommit, deltas: IssueDeltas, issueIds: IssueIds, committed: number): IngestRecordResult {
    const { projectId, grouping, seenAt } = record;
    const issueKey = `${projectId}\u0000${grouping.config}\u0000${grouping.hash}`;
    let issueId =
      issueIds.get(issueKey) ??
      findIssue.get(projectId, grouping.config, grouping.hash)?.id ??
      mergedHash.get(projectId, grouping.config, grouping.hash)?.id;
    if (issueId === undefined) {
      // Checked before the issue is created, so an SDK retry never leaves an issue without events.
      const duplicate = duplicateOf(projectId, record.eventId);
      if (duplicate) return duplicate;
      const seq = nextSeq.get(projectId)?.last_issue_seq ?? 0;
      issueId = insertIssue.get(
        projectId, grouping.config, grouping.hash, grouping.strategy, seq, grouping.title, grouping.culprit,
        record.level, grouping.eventType, grouping.metadata, seenAt, seenAt,
      )!.id;
    }
    issueIds.set(issueKey, issueId);
    // Inserted first and looked up only when it was there already: one B-tree descent per event, not two.
    if (insertEvent.run(projectId, record.eventId, issueId, grouping.hash, seenAt, record.received, packPayload(record.payload), committed, record.traceId).changes === 0) {
      return duplicateOf(projectId, record.eventId)!;
    }
    const event = { level: record.level, release: record.release, tags: decodeTags(record.tags) };
    deltas.add(issueId, { event, seenAt, title: grouping.title, culprit: grouping.culprit, userKey: record.userKey });
    return { kind: "event", issueId: String(issueId), duplicate: false };
  }

  function applyIssueDelta(delta: IssueDelta, committedAt: number): TouchedRow | undefined {
    feedIssue.run({ issueId: delta.issueId, committed: committedAt, ...feedValuesOf(delta) });
    let newUsers = 0;
    for (const userKey of delta.userKeys) newUsers += addUser.run(delta.issueId, userKey).changes;
    const touched = applyDelta.get({
      issueId: delta.issueId, count: delta.count, newUsers, firstSeen: delta.firstSeen, lastSeen: delta.lastSeen,
      title: delta.title, culprit: delta.culprit, level: delta.level,
      firstRelease: delta.firstRelease, lastRelease: delta.lastRelease,
    });
    for (const [hour, count] of delta.hours) bumpHour.run(delta.issueId, hour, count);
    bumpTags(delta.issueId, delta.tags.values());
    return touched;
  }

  const reopen = reopenIssues(db);

  const telemetry = sqliteTelemetryIngest(db);

  const commitAll = db.transaction((records: CommitRecord[]) => {
    const deltas = new IssueDeltas();
    const outcomes = new OutcomeSums();
    const batch = telemetry.batch();
    const issueIds: IssueIds = new Map();
    const committed = issueEvents.stamp();
    const results = records.map((record): IngestRecordResult => {
      if (record.kind === "event") return writeEvent(record, deltas, issueIds, committed);
      if (record.kind === "attachment") {
        // Its outcome depends on whether it fit the project's limit (src/storage/attachment-outcomes.ts).
        const result = batch.write(record);
        for (const o of attachmentOutcomes(record, result.kind === "attachment" && result.stored)) outcomes.add(o);
        return result;
      }
      if (record.kind !== "outcome") return batch.write(record);
      outcomes.add(record);
      return { kind: "outcome" };
    });
    batch.finish();
    const committedAt = Date.now();
    const notOpen: { row: TouchedRow; delta: IssueDelta }[] = [];
    for (const delta of deltas.values()) {
      const row = applyIssueDelta(delta, committedAt);
      if (row && row.status !== "unresolved") notOpen.push({ row, delta });
    }
    if (notOpen.length > 0) reopen(notOpen, committedAt);
    for (const o of outcomes.values()) bumpOutcome.run(o.projectId, o.hour, o.outcome, o.category, o.reason, o.quantity);
    issueEvents.mergeIfDue(committed);
    return results;
  });

  return {
    commit(records) {
      // IMMEDIATE takes the write lock up front: a deferred transaction that reads first cannot wait
      // for it (SQLITE_BUSY at once) when another connection — the main thread's or the commit
      // thread's — wrote in between; BEGIN IMMEDIATE waits busy_timeout instead.
      return commitAll.immediate(records);
    },
  };
}
