import { feedValuesOf } from "../alert-feed";
import { counterTagsOf } from "../../processing/normalize-tags";
import { HOUR_MS, IssueDeltas, OutcomeSums } from "../issue-deltas";
import { asRead, readSpanContainers } from "../../items/span-containers";
import { eventTraceOf } from "../../processing/trace-context";
import type { IngestRecord, IngestRecordResult, IngestStore } from "../types";
import { columnArrays, sortedBy, unnestInsert } from "./bulk";
import type { PgDb, Queryable } from "./db";
import { MissingPartitions, PartitionNeeds } from "./partitions";
import { reopenIssues } from "./issue-reopen";
import type { TouchedRow } from "../issue-reopen";
import { writeTelemetry } from "./telemetry-ingest";
import { writeAttachment } from "./attachments";
import { attachmentOutcomes } from "../attachment-outcomes";

type EventRecord = Extract<IngestRecord, { kind: "event" }>;

const key = (...parts: (string | number)[]) => parts.join("\u0000");

/**
 * The write path. One call = one transaction, however many records (the group-commit writer batches
 * concurrent requests into a call). Several processes commit into the same database at once, so:
 * - races are settled by the database: an event id is claimed in `event_ids` (first INSERT wins),
 *   issue creation holds the project row (which also hands out short-id numbers), counters are
 *   `INSERT ... ON CONFLICT DO UPDATE SET n = n + excluded.n`;
 * - every phase touches its rows in one global order (tables in a fixed sequence — claims, issue
 *   creation, events, transactions, spans, sessions, issue counters, outcomes — keys sorted), so
 *   two batches touching the same issues wait for each other instead of deadlocking; a deadlock or
 *   serialization failure that happens anyway retries the whole transaction (db.ts).
 * The writer may run `concurrentCommits` batches at once (their WAL flushes overlap); the same rules
 * make that safe, as they do between processes.
 */
export function postgresIngest(db: PgDb, concurrentCommits: number): IngestStore {
  return {
    concurrentCommits,
    async commit(input) {
      const { records, answer } = readSpanContainers(input, asRead);
      const needs = partitionNeeds(records);
      for (let attempt = 1; ; attempt++) {
        await db.partitions.ensure(db, needs);
        try {
          return answer(await db.transaction((tx) => writeBatch(tx, db, records)));
        } catch (error) {
          if (attempt >= 4) throw error;
          if (error instanceof MissingPartitions) {
            for (const [table, days] of error.needs.days) for (const day of days) needs.add(table, day);
          } else if ((error as { code?: unknown }).code === "23514" && /no partition/.test(String(error))) {
            // A partition another process dropped (retention) or created: read the catalogue again.
            await db.partitions.reload(db);
          } else {
            throw error;
          }
        }
      }
    },
  };
}

/** The day partitions a batch writes into, as far as the records tell (session states add theirs later). */
/** A span's day, in the spans and in the performance samples made from them (ADR 0022). */
function addSpanDay(needs: PartitionNeeds, end: number): void {
  needs.add("spans", end);
  needs.add("segment_samples", end);
  needs.add("vital_samples", end);
  needs.add("segment_rollups", end);
  needs.add("vital_rollups", end);
}

export function partitionNeeds(records: IngestRecord[]): PartitionNeeds {
  const needs = new PartitionNeeds();
  for (const record of records) {
    switch (record.kind) {
      case "event":
        needs.add("events", Math.round(record.event.received * 1000));
        break;
      case "outcome":
        needs.add("outcomes", Math.floor(record.timestamp / HOUR_MS) * HOUR_MS);
        break;
      case "transaction":
        needs.add("transactions", Math.round(record.transaction.received * 1000));
        for (const span of record.spans) addSpanDay(needs, span.end);
        break;
      case "logs":
        for (const log of record.logs) needs.add("logs", log.timestamp);
        break;
      case "attachment":
        needs.add("attachments", record.received);
        needs.add("outcomes", Math.floor(record.received / HOUR_MS) * HOUR_MS);
        break;
      case "span":
        addSpanDay(needs, record.span.end);
        break;
      case "session_update":
        needs.add("session_counts", record.update.started);
        needs.add("session_users", record.update.started);
        break;
      case "session_aggregate":
        needs.add("session_counts", record.aggregate.started);
        needs.add("session_users", record.aggregate.started);
        break;
    }
  }
  return needs;
}

async function writeBatch(tx: Queryable, db: PgDb, records: IngestRecord[]): Promise<IngestRecordResult[]> {
  const results = new Array<IngestRecordResult>(records.length);
  const deltas = await writeEvents(tx, records, results);
  await writeTelemetry(tx, db.partitions, records, results);
  // The rows every batch touches (issue counters, outcome counters) come last: their locks are held
  // only for the rest of the transaction, so concurrent batches overlap everything before them.
  await applyIssueDeltas(tx, deltas);
  const outcomes = new OutcomeSums();
  // Attachments (issue 38): stored or not, as their project's limit allows; counted either way.
  // In project order, as every process takes the projects' locks (writeAttachment), so none deadlock.
  const attachments = sortedBy([...records.entries()].filter(([, record]) => record.kind === "attachment"), ([, record]) => [Number(record.projectId)]);
  for (const [index, record] of attachments) {
    if (record.kind !== "attachment") continue;
    const stored = await writeAttachment(tx, record);
    results[index] = { kind: "attachment", stored };
    for (const o of attachmentOutcomes(record, stored)) outcomes.add(o);
  }
  records.forEach((record, index) => {
    if (record.kind !== "outcome") return;
    outcomes.add(record);
    results[index] = { kind: "outcome" };
  });
  const sums = sortedBy([...outcomes.values()], (o) => [o.projectId, o.hour, o.outcome, o.category, o.reason]);
  if (sums.length > 0) {
    await tx.query(
      unnestInsert(
        "outcomes",
        [["project_id", "bigint"], ["hour", "bigint"], ["outcome", "text"], ["category", "text"], ["reason", "text"], ["quantity", "bigint"]],
        "ON CONFLICT (project_id, hour, outcome, category, reason) DO UPDATE SET quantity = outcomes.quantity + excluded.quantity",
      ),
      columnArrays(sums.map((o) => [o.projectId, o.hour, o.outcome, o.category, o.reason, o.quantity]), 6),
    );
  }
  return results;
}

interface IssueKey {
  projectId: number;
  config: string;
  hash: string;
  /** The first event of the batch with this grouping: it names a new issue. */
  first: EventRecord;
}

/** Stores the batch's new events (creating their issues) and answers every event record; returns the counter deltas. */
async function writeEvents(tx: Queryable, records: IngestRecord[], results: IngestRecordResult[]): Promise<IssueDeltas> {
  // The first record of an event id in the batch is the one stored; later ones are duplicates of it.
  const firstOf = new Map<string, number>();
  const fresh: { index: number; record: EventRecord }[] = [];
  records.forEach((record, index) => {
    if (record.kind !== "event") return;
    const id = key(record.projectId, record.event.event_id);
    if (firstOf.has(id)) return;
    firstOf.set(id, index);
    fresh.push({ index, record });
  });
  const deltas = new IssueDeltas();
  if (fresh.length === 0) return deltas;

  const claims = sortedBy(fresh, ({ record }) => [Number(record.projectId), record.event.event_id]);
  const claimed = await tx.query<{ project_id: number; event_id: string }>(
    unnestInsert("event_ids", [["project_id", "bigint"], ["event_id", "text"], ["received", "bigint"]], "ON CONFLICT DO NOTHING RETURNING project_id, event_id"),
    columnArrays(claims.map(({ record }) => [Number(record.projectId), record.event.event_id, Math.round(record.event.received * 1000)]), 3),
  );
  const won = new Set(claimed.map((row) => key(row.project_id, row.event_id)));
  const stored = fresh.filter(({ record }) => won.has(key(Number(record.projectId), record.event.event_id)));
  const lost = fresh.filter(({ record }) => !won.has(key(Number(record.projectId), record.event.event_id)));

  const issueOf = await resolveIssues(tx, stored.map((s) => s.record));
  const issueIdOfEvent = new Map<string, string>();
  for (const { record } of stored) {
    issueIdOfEvent.set(key(Number(record.projectId), record.event.event_id), String(issueOf.get(key(Number(record.projectId), record.grouping.config, record.grouping.hash))));
  }
  if (lost.length > 0) {
    // Stored by an earlier batch (an SDK retry) or a concurrent one that committed first.
    const rows = await tx.query<{ project_id: number; event_id: string; issue_id: number }>(
      `SELECT e.project_id, e.event_id, e.issue_id FROM events e
       JOIN unnest($1::bigint[], $2::text[]) AS k(project_id, event_id) USING (project_id, event_id)`,
      columnArrays(lost.map(({ record }) => [Number(record.projectId), record.event.event_id]), 2),
    );
    for (const row of rows) issueIdOfEvent.set(key(row.project_id, row.event_id), String(row.issue_id));
  }

  if (stored.length > 0) {
    await tx.query(
      unnestInsert("events", [
        ["project_id", "bigint"], ["event_id", "text"], ["issue_id", "bigint"], ["grouping_hash", "text"], ["timestamp", "bigint"],
        ["received", "bigint"], ["payload", "text"], ["trace_id", "text"],
      ]),
      columnArrays(
        stored.map(({ record }) => {
          const projectId = Number(record.projectId);
          return [
            projectId, record.event.event_id, Number(issueOf.get(key(projectId, record.grouping.config, record.grouping.hash))),
            record.grouping.hash, Math.round(record.event.timestamp * 1000), Math.round(record.event.received * 1000), record.payload,
            eventTraceOf(record.event.contexts)?.traceId ?? null,
          ];
        }),
        8,
      ),
    );
  }

  for (const { record } of stored) {
    const projectId = Number(record.projectId);
    deltas.add(issueOf.get(key(projectId, record.grouping.config, record.grouping.hash))!, {
      event: { level: record.event.level, release: record.event.release, tags: counterTagsOf(record.event) }, seenAt: Math.round(record.event.timestamp * 1000), title: record.grouping.title,
      culprit: record.grouping.culprit, userKey: record.userKey,
    });
  }
  records.forEach((record, index) => {
    if (record.kind !== "event") return;
    const id = key(Number(record.projectId), record.event.event_id);
    const duplicate = firstOf.get(key(record.projectId, record.event.event_id)) !== index || !won.has(id);
    results[index] = { kind: "event", issueId: issueIdOfEvent.get(id) ?? "0", duplicate };
  });
  return deltas;
}

/** Finds or creates the issue of every grouping in the batch: (project, config, hash) → issue id. */
async function resolveIssues(tx: Queryable, events: EventRecord[]): Promise<Map<string, number>> {
  const wanted = new Map<string, IssueKey>();
  for (const record of events) {
    const id = key(Number(record.projectId), record.grouping.config, record.grouping.hash);
    if (!wanted.has(id)) wanted.set(id, { projectId: Number(record.projectId), config: record.grouping.config, hash: record.grouping.hash, first: record });
  }
  const found = new Map<string, number>();
  const lookup = async (keys: IssueKey[]) => {
    if (keys.length === 0) return;
    const rows = await tx.query<{ id: number; project_id: number; grouping_config: string; hash: string }>(
      `SELECT i.id, i.project_id, i.grouping_config, i.hash FROM issues i
       JOIN unnest($1::bigint[], $2::text[], $3::text[]) AS k(project_id, grouping_config, hash) USING (project_id, grouping_config, hash)`,
      columnArrays(keys.map((k) => [k.projectId, k.config, k.hash]), 3),
    );
    for (const row of rows) found.set(key(row.project_id, row.grouping_config, row.hash), row.id);
  };
  const missing = () => [...wanted.entries()].filter(([id]) => !found.has(id)).map(([, k]) => k);
  await lookup([...wanted.values()]);
  if (missing().length === 0) return found;
  // An issue merged into another left its hash behind (issue workflow): read only for groupings no issue has.
  const merged = await tx.query<{ id: number; project_id: number; grouping_config: string; hash: string }>(
    `SELECT m.issue_id AS id, m.project_id, m.grouping_config, m.hash FROM issue_merged_hashes m
     JOIN unnest($1::bigint[], $2::text[], $3::text[]) AS k(project_id, grouping_config, hash) USING (project_id, grouping_config, hash)`,
    columnArrays(missing().map((k) => [k.projectId, k.config, k.hash]), 3),
  );
  for (const row of merged) found.set(key(row.project_id, row.grouping_config, row.hash), Number(row.id));
  if (missing().length === 0) return found;

  // Creating: hold the projects' rows (in id order) so one process at a time creates a project's issues,
  // then look again — another process may have created some while we waited.
  const projectIds = [...new Set(missing().map((k) => k.projectId))].sort((a, b) => a - b);
  await tx.query("SELECT id FROM projects WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE", [projectIds]);
  await lookup(missing());
  const toCreate = missing();
  if (toCreate.length === 0) return found;

  const perProject = new Map<number, IssueKey[]>();
  for (const k of toCreate) perProject.set(k.projectId, [...(perProject.get(k.projectId) ?? []), k]);
  const rows: (string | number)[][] = [];
  for (const [projectId, keys] of [...perProject].sort((a, b) => a[0] - b[0])) {
    const [seq] = await tx.query<{ last_issue_seq: number }>(
      "UPDATE projects SET last_issue_seq = last_issue_seq + $2 WHERE id = $1 RETURNING last_issue_seq",
      [projectId, keys.length],
    );
    const first = seq ? seq.last_issue_seq - keys.length + 1 : 0;
    keys.forEach((k, i) => {
      const { event, grouping } = k.first;
      const seenAt = Math.round(event.timestamp * 1000);
      rows.push([
        projectId, grouping.config, grouping.hash, grouping.strategy, seq ? first + i : 0, grouping.title, grouping.culprit,
        event.level, grouping.eventType, JSON.stringify(grouping.metadata), seenAt, seenAt,
      ]);
    });
  }
  const created = await tx.query<{ id: number; project_id: number; grouping_config: string; hash: string }>(
    unnestInsert(
      "issues",
      [
        ["project_id", "bigint"], ["grouping_config", "text"], ["hash", "text"], ["grouping_strategy", "text"], ["seq", "bigint"],
        ["title", "text"], ["culprit", "text"], ["level", "text"], ["type", "text"], ["metadata", "text"], ["first_seen", "bigint"],
        ["last_seen", "bigint"],
      ],
      "RETURNING id, project_id, grouping_config, hash",
    ),
    columnArrays(rows, 12),
  );
  for (const row of created) found.set(key(row.project_id, row.grouping_config, row.hash), row.id);
  return found;
}

async function applyIssueDeltas(tx: Queryable, deltas: IssueDeltas): Promise<void> {
  const all = sortedBy([...deltas.values()], (d) => [d.issueId]);
  if (all.length === 0) return;
  const users = sortedBy(all.flatMap((d) => [...d.userKeys].map((user) => [d.issueId, user] as const)), ([issue, user]) => [issue, user]);
  const newUsers = new Map<number, number>();
  if (users.length > 0) {
    const added = await tx.query<{ issue_id: number }>(
      unnestInsert("issue_users", [["issue_id", "bigint"], ["user_key", "text"]], "ON CONFLICT DO NOTHING RETURNING issue_id"),
      columnArrays(users, 2),
    );
    for (const { issue_id } of added) newUsers.set(issue_id, (newUsers.get(issue_id) ?? 0) + 1);
  }
  // Rows locked in id order first (UPDATE ... FROM takes them in join order), then one UPDATE for all.
  // The locking statement writes the alert feed (issue 34) with each issue's status before this batch
  // (NULL: created by it), read under the lock so two processes never both see it resolved.
  const feed = all.map((d) => ({ issueId: d.issueId, ...feedValuesOf(d) }));
  await tx.query(
    `WITH locked AS (SELECT id, project_id, status, times_seen FROM issues WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE)
     INSERT INTO alert_issue_feed (issue_id, project_id, prev_status, count, users, level, release, tags, committed)
     SELECT l.id, l.project_id, CASE WHEN l.times_seen = 0 THEN NULL ELSE l.status END, d.count, d.users, d.level, d.release, d.tags, $7
     FROM locked l JOIN unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])
       AS d(issue_id, count, users, level, release, tags) ON d.issue_id = l.id`,
    [...columnArrays(feed.map((f) => [f.issueId, f.count, f.users, f.level, f.release, f.tags]), 6), Date.now()],
  );
  // An unresolved issue created in this batch stays "new"; one that existed before becomes "ongoing".
  // Whether a resolved or ignored issue comes back is decided from what this returns (issue-reopen.ts).
  const touched = await tx.query<TouchedRow>(
    `UPDATE issues i SET
       times_seen = i.times_seen + d.count, user_count = i.user_count + d.new_users,
       first_seen = LEAST(i.first_seen, d.first_seen), last_seen = GREATEST(i.last_seen, d.last_seen),
       -- Only a batch at least as new as the issue changes what it shows (SET sees the old row).
       title = CASE WHEN d.last_seen >= i.last_seen THEN d.title ELSE i.title END,
       culprit = CASE WHEN d.last_seen >= i.last_seen THEN d.culprit ELSE i.culprit END,
       level = CASE WHEN d.last_seen >= i.last_seen THEN d.level ELSE i.level END,
       first_release = CASE WHEN d.first_seen < i.first_seen THEN COALESCE(d.first_release, i.first_release)
                            ELSE COALESCE(i.first_release, d.first_release) END,
       last_release = CASE WHEN d.last_seen >= i.last_seen THEN COALESCE(d.last_release, i.last_release) ELSE i.last_release END,
       substatus = CASE WHEN i.status = 'unresolved' AND i.substatus = 'new' AND i.times_seen > 0 THEN 'ongoing' ELSE i.substatus END
     FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[])
       AS d(issue_id, count, new_users, first_seen, last_seen, title, culprit, level, first_release, last_release)
     WHERE i.id = d.issue_id
     RETURNING i.id, i.project_id, i.status, i.status_details, i.times_seen, i.user_count`,
    columnArrays(
      all.map((d) => [
        d.issueId, d.count, newUsers.get(d.issueId) ?? 0, d.firstSeen, d.lastSeen, d.title, d.culprit, d.level, d.firstRelease, d.lastRelease,
      ]),
      10,
    ),
  );
  const notOpen = touched.filter((row) => row.status !== "unresolved");
  if (notOpen.length > 0) {
    const byId = new Map(all.map((d) => [d.issueId, d]));
    await reopenIssues(tx, notOpen.map((row) => ({ row: { ...row, id: Number(row.id), project_id: Number(row.project_id) }, delta: byId.get(Number(row.id))! })), Date.now());
  }
  const hours = sortedBy(all.flatMap((d) => [...d.hours].map(([hour, count]) => [d.issueId, hour, count] as const)), ([i, h]) => [i, h]);
  await tx.query(
    unnestInsert("issue_hourly", [["issue_id", "bigint"], ["hour", "bigint"], ["count", "bigint"]],
      "ON CONFLICT (issue_id, hour) DO UPDATE SET count = issue_hourly.count + excluded.count"),
    columnArrays(hours, 3),
  );
  const tags = sortedBy(
    all.flatMap((d) => [...d.tags.values()].map((t) => [d.issueId, t.key, t.value, t.count, t.firstSeen, t.lastSeen] as const)),
    ([i, k, v]) => [i, k, v],
  );
  if (tags.length > 0) {
    await tx.query(
      unnestInsert(
        "issue_tags",
        [["issue_id", "bigint"], ["key", "text"], ["value", "text"], ["count", "bigint"], ["first_seen", "bigint"], ["last_seen", "bigint"]],
        `ON CONFLICT (issue_id, key, value) DO UPDATE SET count = issue_tags.count + excluded.count,
           first_seen = LEAST(issue_tags.first_seen, excluded.first_seen), last_seen = GREATEST(issue_tags.last_seen, excluded.last_seen)`,
      ),
      columnArrays(tags, 6),
    );
  }
}
