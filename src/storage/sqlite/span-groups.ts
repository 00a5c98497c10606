/**
 * A span container as the SQLite commit stores it (migration 0006): one `span_groups` row per trace
 * it holds, not one `spans` row per span. Each row costs its B-tree inserts whatever its size, so
 * this turns a streamed page load's 15 rows into one.
 *
 * A row's spans end at most SPAN_GROUP_MAX_SPREAD_MS apart; a container whose spans of one trace end
 * further apart becomes several rows. The span list (spans.ts) pages by end time and relies on that
 * bound to find the rows that hold spans ending before its cursor.
 */
import { createHash } from "node:crypto";
import { addPerfSamples, noSamples } from "../perf-samples";
import type { ReadIngestRecord, SpanData } from "../types";
import { toCommitRecord, type CommitRecord, type SpanGroupCommit } from "./commit-records";

/** Unix ms. Containers hold spans that ended within a few seconds of each other (tests/fixtures: under 1 s). */
export const SPAN_GROUP_MAX_SPREAD_MS = 60_000;

const byEnd = (a: SpanData, b: SpanData) => a.end - b.end || (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);

/**
 * The row key: a hash of the row's span ids in order. The same container sent again (an SDK retry)
 * makes the same rows, which the commit then ignores; a container that shares some spans with an
 * earlier one is stored in full, and the reads keep each span once (spans.ts).
 */
function groupKey(spans: readonly SpanData[]): string {
  const hash = createHash("md5");
  for (const span of spans) hash.update(span.spanId);
  return hash.digest("base64url");
}

/** The distinct values, each between newlines: a filter looks for "\n<value>\n" (spans.ts). */
function listed(values: Iterable<string | null>): string {
  const distinct = new Set(values);
  distinct.delete(null);
  return distinct.size === 0 ? "" : `\n${[...distinct].join("\n")}\n`;
}

const jsonOf = (spans: SpanData[]): string | null => (spans.length === 0 ? null : JSON.stringify(spans));

function groupOf(projectId: number, traceId: string, spans: SpanData[]): SpanGroupCommit {
  return {
    kind: "span_group", projectId, traceId, key: groupKey(spans), minEnd: spans[0]!.end, maxEnd: spans.at(-1)!.end,
    ops: listed(spans.map((span) => span.op)), segmentNames: listed(spans.map((span) => span.segmentName)),
    segments: jsonOf(spans.filter((span) => span.isSegment)), spans: jsonOf(spans.filter((span) => !span.isSegment)),
    samples: addPerfSamples(noSamples(), projectId, spans),
  };
}

/** The commit records of one read container: its spans as span groups, its outcomes as they are. */
export function spanGroupsOf(records: readonly ReadIngestRecord[]): CommitRecord[] {
  const out: CommitRecord[] = [];
  const traces = new Map<string, SpanData[]>();
  let projectId = 0;
  for (const record of records) {
    if (record.kind !== "span") {
      out.push(toCommitRecord(record));
      continue;
    }
    // A container's records all carry its project.
    projectId = Number(record.projectId);
    const spans = traces.get(record.span.traceId);
    if (spans) spans.push(record.span);
    else traces.set(record.span.traceId, [record.span]);
  }
  for (const [traceId, spans] of traces) {
    spans.sort(byEnd);
    let first = 0;
    for (let i = 1; i <= spans.length; i++) {
      if (i < spans.length && spans[i]!.end - spans[first]!.end <= SPAN_GROUP_MAX_SPREAD_MS) continue;
      out.push(groupOf(projectId, traceId, spans.slice(first, i)));
      first = i;
    }
  }
  return out;
}
