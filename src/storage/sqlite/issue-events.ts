/**
 * An issue's events in `issue_events`, merged in bulk (migration 0007). Every commit stamps its
 * events with a `committed` value that only ever grows; every ISSUE_EVENTS_MERGE_MS a commit also
 * copies the entries of the events committed since the last merge, sorted, into issue_events, and
 * moves the mark. Reads take issue_events and the events past the mark together (events.ts), in
 * one statement, so one snapshot: an event is in exactly one of the two.
 *
 * Why: inserting each event's entry at once cost a page write per event when many issues receive
 * events together, each issue's entries being on pages of their own. Merged a few seconds at a time,
 * an issue's events of those seconds share the pages they are written to.
 */
import type { Db } from "./db";

/** How often a commit merges; reads scan the events of up to this long (and one commit) through events_committed. */
export const ISSUE_EVENTS_MERGE_MS = 5_000;

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
  /** Inside the same transaction, after its events are written: merges when one is due. */
  mergeIfDue(stamp: number): void;
}

export function issueEventsWriter(db: Db, options: IssueEventsOptions = {}): IssueEventsWriter {
  const mergeEveryMs = options.mergeEveryMs ?? ISSUE_EVENTS_MERGE_MS;
  const latest = db.prepare<[], { latest: number }>(
    "SELECT MAX((SELECT through FROM issue_events_merged WHERE id = 1), COALESCE((SELECT MAX(committed) FROM events), 0)) AS latest",
  );
  const merge = db.prepare<[number]>(
    `INSERT OR IGNORE INTO issue_events (issue_id, timestamp, event_id, project_id)
     SELECT issue_id, timestamp, event_id, project_id FROM events
     WHERE committed > (SELECT through FROM issue_events_merged WHERE id = 1) AND committed <= ?
     ORDER BY issue_id, timestamp, event_id`,
  );
  const moveMark = db.prepare<[number]>("UPDATE issue_events_merged SET through = ? WHERE id = 1");
  let mergedAt = Date.now();

  return {
    stamp() {
      return Math.max(latest.get()!.latest + 1, Date.now());
    },
    mergeIfDue(stamp) {
      const now = Date.now();
      if (now - mergedAt < mergeEveryMs) return;
      merge.run(stamp);
      moveMark.run(stamp);
      mergedAt = now;
    },
  };
}
