/**
 * Merge and unmerge helpers shared by both engines (issue workflow). Merging moves the events and
 * sums the counters in SQL; unmerging a hash re-creates the merged issue from the row kept in
 * issue_merged_hashes and rebuilds both issues' counters from their events (countersOf), which
 * reads every event of the two issues: fine for a rare, deliberate action.
 */
import { storedEventOf } from "../processing/stored-event";
import { counterTagsOf, userKey } from "../processing/normalize-tags";
import { IssueDeltas, type IssueDelta } from "./issue-deltas";
import type { IssueRow } from "./rows";
import { unpackPayload } from "./stored-payload";

/** The merged issue's own columns, kept to bring it back. */
export type KeptIssueRow = Pick<
  IssueRow,
  "id" | "project_id" | "grouping_config" | "grouping_strategy" | "seq" | "title" | "culprit" | "level" | "type" | "metadata" | "first_seen" | "last_seen"
> & { hash: string };

export const keptRowOf = (row: KeptIssueRow): string =>
  JSON.stringify({
    id: row.id, project_id: row.project_id, grouping_config: row.grouping_config, hash: row.hash, grouping_strategy: row.grouping_strategy,
    seq: row.seq, title: row.title, culprit: row.culprit, level: row.level, type: row.type, metadata: row.metadata,
    first_seen: row.first_seen, last_seen: row.last_seen,
  });

/** An issue's counters as its stored events give them; null when it has none. */
export function countersOf(issueId: number, events: { payload: string | Uint8Array; timestamp: number }[], title: string, culprit: string): IssueDelta | null {
  const deltas = new IssueDeltas();
  for (const row of events) {
    const event = storedEventOf(unpackPayload(row.payload));
    deltas.add(issueId, { event: { level: event.level, release: event.release, tags: counterTagsOf(event) }, seenAt: Number(row.timestamp), title, culprit, userKey: userKey(event.user) });
  }
  return [...deltas.values()][0] ?? null;
}
