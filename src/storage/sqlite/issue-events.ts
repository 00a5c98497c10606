/**
 * An issue's events in `issue_events`, merged in bulk (migration 0007, ADR 0010). Every commit
 * stamps its events with a `committed` value that only ever grows. Every ISSUE_EVENTS_MERGE_MS a
 * merge starts: it reads the entries of the events committed since the mark, sorted by issue, and
 * the commits that follow write them ISSUE_EVENTS_MERGE_ROWS at a time; the last of them moves the
 * mark. Reads take issue_events and the events past the mark together (events.ts), in one
 * statement, so one snapshot; while a merge is under way an event may be on both sides, and the
 * reads keep it once.
 *
 * Why: inserting each event's entry at once cost a page write per event when many issues receive
 * events together, each issue's entries being on pages of their own. Merged a few seconds at a time,
 * an issue's events of those seconds share the pages they are written to.
 */
import type { Db } from "./db";

/** How often a merge starts; reads scan the events of up to this long (and one merge) through events_committed. */
export const ISSUE_EVENTS_MERGE_MS = 5_000;
/**
 * Entries a commit writes of a merge under way. All of a merge in one commit held that commit for
 * hundreds of ms with 10,000 issues and a backlog (docs/performance.md); in slices, no commit
 * writes more than this, and an issue's entries still go in together, sorted.
 */
export const ISSUE_EVENTS_MERGE_ROWS = 1_000;

export interface IssueEventsOptions {
  /** Overrides ISSUE_EVENTS_MERGE_MS: 0 starts a merge in every commit (tests), Infinity never. */
  mergeEveryMs?: number;
  /** Overrides ISSUE_EVENTS_MERGE_ROWS (tests). */
  mergeRows?: number;
}

export interface IssueEventsWriter {
  /**
   * Inside the commit's transaction, before its events are written: their `committed` value, greater
   * than every one in the file and than the mark. Read from the file, not kept here, so that another
   * connection's commits (the tests', or one that rolled back) cannot make it go back.
   */
  stamp(): number;
  /** Inside the same transaction, after its events are written: writes a slice of a merge under way or due. */
  mergeIfDue(stamp: number): void;
  /** The commit's transaction rolled back: a merge under way starts again from the mark in the file. */
  abandon(): void;
}

type Entry = [issueId: number, timestamp: number, eventId: string, projectId: number];

/** A merge under way: the entries of the events committed after the mark up to `through`, written up to `next`. */
interface Merge {
  entries: Entry[];
  next: number;
  through: number;
}

export function issueEventsWriter(db: Db, options: IssueEventsOptions = {}): IssueEventsWriter {
  const mergeEveryMs = options.mergeEveryMs ?? ISSUE_EVENTS_MERGE_MS;
  const mergeRows = options.mergeRows ?? ISSUE_EVENTS_MERGE_ROWS;
  const latest = db.prepare<[], { latest: number }>(
    "SELECT MAX((SELECT through FROM issue_events_merged WHERE id = 1), COALESCE((SELECT MAX(committed) FROM events), 0)) AS latest",
  );
  const pending = db
    .prepare<[number], Entry>(
      `SELECT issue_id, timestamp, event_id, project_id FROM events
       WHERE committed > (SELECT through FROM issue_events_merged WHERE id = 1) AND committed <= ?
       ORDER BY issue_id, timestamp, event_id`,
    )
    .raw();
  // Entries already there (merged again after a rollback, or by another connection) are skipped.
  const insert = db.prepare<Entry>("INSERT OR IGNORE INTO issue_events (issue_id, timestamp, event_id, project_id) VALUES (?, ?, ?, ?)");
  // Never back: another connection's merge may have moved the mark further meanwhile.
  const moveMark = db.prepare<[number]>("UPDATE issue_events_merged SET through = MAX(through, ?) WHERE id = 1");
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
        merge = { entries: pending.all(stamp), next: 0, through: stamp };
      }
      const end = Math.min(merge.entries.length, merge.next + mergeRows);
      for (let i = merge.next; i < end; i++) insert.run(...merge.entries[i]!);
      merge.next = end;
      if (end < merge.entries.length) return;
      // Only now is every event up to `through` in issue_events; until then reads take both sides.
      moveMark.run(merge.through);
      merge = null;
    },
    abandon() {
      merge = null;
    },
  };
}
