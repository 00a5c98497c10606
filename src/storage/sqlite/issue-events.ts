/**
 * An issue's events in `issue_events`, merged in bulk (migration 0007, ADR 0010). Every commit
 * stamps its events with a `committed` value that only ever grows. Every ISSUE_EVENTS_MERGE_MS a
 * merge starts: the next ISSUE_EVENTS_MERGE_PARTS commits each copy, sorted, the entries of one
 * part of the issues' events committed since the mark, and the last of them moves the mark. Reads
 * take issue_events and the events past the mark together (events.ts), in one statement, so one
 * snapshot; while a merge is under way an event may be on both sides, and the reads keep it once.
 *
 * Why: inserting each event's entry at once cost a page write per event when many issues receive
 * events together, each issue's entries being on pages of their own. Merged a few seconds at a time,
 * an issue's events of those seconds share the pages they are written to.
 */
import type { Db } from "./db";

/** How often a merge starts; reads scan the events of up to this long (and one merge) through events_committed. */
export const ISSUE_EVENTS_MERGE_MS = 5_000;
/**
 * A merge runs over this many commits, each taking the issues whose id has one remainder: a merge
 * of 5 s of events in one commit held that commit for hundreds of ms with 10,000 issues
 * (docs/performance.md). An issue's events of those 5 s still go in together.
 */
export const ISSUE_EVENTS_MERGE_PARTS = 16;

export interface IssueEventsOptions {
  /** Overrides ISSUE_EVENTS_MERGE_MS: 0 merges in every commit (tests), Infinity never. */
  mergeEveryMs?: number;
}

export interface IssueEventsWriter {
  /**
   * Inside the commit's transaction, before its events are written: their `committed` value, greater
   * than every one in the file and than the mark. Read from the file, not kept here, so that another
   * connection's commits (the tests', or one that rolled back) cannot make it go back.
   */
  stamp(): number;
  /** Inside the same transaction, after its events are written: merges a part when a merge is under way or due. */
  mergeIfDue(stamp: number): void;
  /** The commit's transaction rolled back: a merge under way starts again from the mark in the file. */
  abandon(): void;
}

/** A merge under way: the events committed after `from` up to `through`, parts done so far. */
interface Merge {
  from: number;
  through: number;
  part: number;
}

export function issueEventsWriter(db: Db, options: IssueEventsOptions = {}): IssueEventsWriter {
  const mergeEveryMs = options.mergeEveryMs ?? ISSUE_EVENTS_MERGE_MS;
  const latest = db.prepare<[], { latest: number }>(
    "SELECT MAX((SELECT through FROM issue_events_merged WHERE id = 1), COALESCE((SELECT MAX(committed) FROM events), 0)) AS latest",
  );
  const readMark = db.prepare<[], { through: number }>("SELECT through FROM issue_events_merged WHERE id = 1");
  // Entries already there (a part merged again after a crash, or by another connection) are skipped.
  const mergePart = db.prepare<[Merge & { parts: number }]>(
    `INSERT OR IGNORE INTO issue_events (issue_id, timestamp, event_id, project_id)
     SELECT issue_id, timestamp, event_id, project_id FROM events
     WHERE committed > @from AND committed <= @through AND issue_id % @parts = @part
     ORDER BY issue_id, timestamp, event_id`,
  );
  // Never back: another connection's merge may have moved the mark further meanwhile.
  const moveMark = db.prepare<[number]>("UPDATE issue_events_merged SET through = MAX(through, ?) WHERE id = 1");
  const parts = mergeEveryMs === 0 ? 1 : ISSUE_EVENTS_MERGE_PARTS;
  let merge: Merge | null = null;
  let startedAt = Date.now();

  return {
    stamp() {
      return Math.max(latest.get()!.latest + 1, Date.now());
    },
    mergeIfDue(stamp) {
      if (!merge) {
        const now = Date.now();
        if (now - startedAt < mergeEveryMs) return;
        startedAt = now;
        merge = { from: readMark.get()!.through, through: stamp, part: 0 };
      }
      mergePart.run({ ...merge, parts });
      merge.part += 1;
      if (merge.part < parts) return;
      // Only now is every event up to `through` in issue_events; until then reads take both sides.
      moveMark.run(merge.through);
      merge = null;
    },
    abandon() {
      merge = null;
    },
  };
}
