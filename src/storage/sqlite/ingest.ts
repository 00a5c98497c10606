import type { IngestRecord, IngestRecordResult, IngestStore } from "../types";
import type { Db } from "./db";

const HOUR_MS = 3_600_000;

type EventRecord = Extract<IngestRecord, { kind: "event" }>;
type OutcomeRecord = Extract<IngestRecord, { kind: "outcome" }>;

interface IssueStateRow {
  id: number;
  status: string;
}

/**
 * The write path. One call = one transaction = one fsync, however many records: the group-commit
 * writer in src/ingest/writer.ts batches concurrent requests into a call.
 */
export function sqliteIngest(db: Db): IngestStore {
  const existingEvent = db.prepare<[number, string], { issue_id: number }>(
    "SELECT issue_id FROM events WHERE project_id = ? AND event_id = ?",
  );
  const findIssue = db.prepare<[number, string, string], IssueStateRow>(
    "SELECT id, status FROM issues WHERE project_id = ? AND grouping_config = ? AND hash = ?",
  );
  const nextSeq = db.prepare<[number], { last_issue_seq: number }>(
    "UPDATE projects SET last_issue_seq = last_issue_seq + 1 WHERE id = ? RETURNING last_issue_seq",
  );
  const insertIssue = db.prepare<
    [number, string, string, string, number, string, string, string, string, string, number, number, string | null, string | null],
    { id: number }
  >(
    `INSERT INTO issues (project_id, grouping_config, hash, grouping_strategy, seq, title, culprit, level, type,
       metadata, first_seen, last_seen, first_release, last_release, times_seen)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) RETURNING id`,
  );
  // A resolved issue that sees a new event is open again and marked regressed; ignored stays ignored.
  const touchIssue = db.prepare<
    [{ seenAt: number; title: string; culprit: string; level: string; release: string | null; id: number }]
  >(
    `UPDATE issues SET
       times_seen = times_seen + 1,
       last_seen = MAX(last_seen, @seenAt),
       first_seen = MIN(first_seen, @seenAt),
       title = @title, culprit = @culprit, level = @level,
       last_release = COALESCE(@release, last_release),
       first_release = COALESCE(first_release, @release),
       substatus = CASE WHEN status = 'resolved' THEN 'regressed'
                        WHEN substatus = 'new' THEN 'ongoing' ELSE substatus END,
       status = CASE WHEN status = 'resolved' THEN 'unresolved' ELSE status END
     WHERE id = @id`,
  );
  const addUser = db.prepare<[number, string]>("INSERT OR IGNORE INTO issue_users (issue_id, user_key) VALUES (?, ?)");
  const bumpUserCount = db.prepare<[number]>("UPDATE issues SET user_count = user_count + 1 WHERE id = ?");
  const bumpHour = db.prepare<[number, number]>(
    `INSERT INTO issue_hourly (issue_id, hour, count) VALUES (?, ?, 1)
     ON CONFLICT (issue_id, hour) DO UPDATE SET count = count + 1`,
  );
  const bumpTag = db.prepare<[{ issueId: number; key: string; value: string; seenAt: number }]>(
    `INSERT INTO issue_tags (issue_id, key, value, count, first_seen, last_seen) VALUES (@issueId, @key, @value, 1, @seenAt, @seenAt)
     ON CONFLICT (issue_id, key, value) DO UPDATE SET
       count = count + 1, first_seen = MIN(first_seen, @seenAt), last_seen = MAX(last_seen, @seenAt)`,
  );
  const insertEvent = db.prepare<[number, string, number, string, number, number, string]>(
    `INSERT INTO events (project_id, event_id, issue_id, grouping_hash, timestamp, received, payload)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const bumpOutcome = db.prepare<
    [{ projectId: number; hour: number; outcome: string; category: string; reason: string; quantity: number }]
  >(
    `INSERT INTO outcomes (project_id, hour, outcome, category, reason, quantity)
     VALUES (@projectId, @hour, @outcome, @category, @reason, @quantity)
     ON CONFLICT (project_id, hour, outcome, category, reason) DO UPDATE SET quantity = quantity + @quantity`,
  );

  function writeEvent(record: EventRecord): IngestRecordResult {
    const projectId = Number(record.projectId);
    const { event, grouping } = record;
    const duplicate = existingEvent.get(projectId, event.event_id);
    if (duplicate) return { kind: "event", issueId: String(duplicate.issue_id), duplicate: true };

    const seenAt = Math.round(event.timestamp * 1000);
    const release = event.release ?? null;
    const type = event.exception.length > 0 ? "error" : "default";
    let issueId: number;
    const issue = findIssue.get(projectId, grouping.config, grouping.hash);
    if (issue) {
      issueId = issue.id;
      touchIssue.run({ seenAt, title: grouping.title, culprit: grouping.culprit, level: event.level, release, id: issueId });
    } else {
      const seq = nextSeq.get(projectId)?.last_issue_seq ?? 0;
      issueId = insertIssue.get(
        projectId, grouping.config, grouping.hash, grouping.strategy, seq, grouping.title, grouping.culprit,
        event.level, type, JSON.stringify(grouping.metadata), seenAt, seenAt, release, release,
      )!.id;
    }
    if (record.userKey !== null && addUser.run(issueId, record.userKey).changes > 0) bumpUserCount.run(issueId);
    bumpHour.run(issueId, Math.floor(seenAt / HOUR_MS) * HOUR_MS);
    for (const [key, value] of event.tags) bumpTag.run({ issueId, key, value, seenAt });
    insertEvent.run(projectId, event.event_id, issueId, grouping.hash, seenAt, Math.round(event.received * 1000), JSON.stringify(event));
    return { kind: "event", issueId: String(issueId), duplicate: false };
  }

  function writeOutcome(record: OutcomeRecord): IngestRecordResult {
    const hour = Math.floor(record.timestamp / HOUR_MS) * HOUR_MS;
    bumpOutcome.run({
      projectId: Number(record.projectId),
      hour,
      outcome: record.outcome,
      category: record.category,
      reason: record.reason ?? "",
      quantity: record.quantity,
    });
    return { kind: "outcome" };
  }

  const commitAll = db.transaction((records: IngestRecord[]) =>
    records.map((record) => (record.kind === "event" ? writeEvent(record) : writeOutcome(record))),
  );

  return {
    async commit(records) {
      return commitAll(records);
    },
  };
}
