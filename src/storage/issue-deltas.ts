/**
 * What one committed batch changes per issue, summed before anything is written: a batch of 500
 * events of one issue becomes one issue update, one update per (tag, value) and per hour instead of
 * 500 of each. Engine-independent; every engine applies the same deltas.
 */
import type { NormalizedEvent } from "../processing/types";
import type { IngestRecord } from "./types";

export const HOUR_MS = 3_600_000;

/** The start of the hour (Unix ms) that hourly counters file a time (Unix ms) under. */
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;

export interface TagDelta {
  key: string;
  value: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
}

export interface IssueDelta {
  issueId: number;
  count: number;
  firstSeen: number;
  lastSeen: number;
  /** From the newest event of the batch, which is what the issue shows. */
  title: string;
  culprit: string;
  level: string;
  firstRelease: string | null;
  lastRelease: string | null;
  userKeys: Set<string>;
  /** Hour start (Unix ms) → events. */
  hours: Map<number, number>;
  tags: Map<string, TagDelta>;
}

export interface DeltaInput {
  /** What the counters read of the event; the SQLite commit passes these fields alone (sqlite/commit-records.ts). */
  event: { level: NormalizedEvent["level"]; release?: string | null; tags: NormalizedEvent["tags"] };
  seenAt: number;
  title: string;
  culprit: string;
  userKey: string | null;
}

export class IssueDeltas {
  private readonly byIssue = new Map<number, IssueDelta>();

  add(issueId: number, { event, seenAt, title, culprit, userKey }: DeltaInput): void {
    let delta = this.byIssue.get(issueId);
    if (!delta) {
      delta = {
        issueId, count: 0, firstSeen: seenAt, lastSeen: seenAt, title, culprit, level: event.level,
        firstRelease: null, lastRelease: null, userKeys: new Set(), hours: new Map(), tags: new Map(),
      };
      this.byIssue.set(issueId, delta);
    }
    delta.count++;
    // First release from the oldest event, last release and what the issue shows from the newest:
    // events arrive out of order (retries, offline clients).
    if (seenAt < delta.firstSeen || delta.count === 1) {
      delta.firstSeen = seenAt;
      delta.firstRelease = event.release ?? delta.firstRelease;
    }
    if (seenAt >= delta.lastSeen || delta.count === 1) {
      delta.lastSeen = seenAt;
      delta.title = title;
      delta.culprit = culprit;
      delta.level = event.level;
      delta.lastRelease = event.release ?? delta.lastRelease;
    }
    if (userKey !== null) delta.userKeys.add(userKey);
    const hour = hourOf(seenAt);
    delta.hours.set(hour, (delta.hours.get(hour) ?? 0) + 1);
    for (const [key, value] of event.tags) {
      const id = `${key}\u0000${value}`;
      const tag = delta.tags.get(id);
      if (tag) {
        tag.count++;
        tag.firstSeen = Math.min(tag.firstSeen, seenAt);
        tag.lastSeen = Math.max(tag.lastSeen, seenAt);
      } else {
        delta.tags.set(id, { key, value, count: 1, firstSeen: seenAt, lastSeen: seenAt });
      }
    }
  }

  values(): IterableIterator<IssueDelta> {
    return this.byIssue.values();
  }
}

export interface OutcomeSum {
  projectId: number;
  hour: number;
  outcome: string;
  category: string;
  /** "" when there is none: it is part of the counter's key. */
  reason: string;
  quantity: number;
}

type OutcomeRecord = Extract<IngestRecord, { kind: "outcome" }>;

/** The counter an outcome adds to: (project, hour, outcome, category, reason), as one string. */
export function outcomeCounterOf(record: OutcomeRecord): string {
  return [record.projectId, hourOf(record.timestamp), record.outcome, record.category, record.reason ?? ""].join("\u0000");
}

/** Outcomes of one batch summed per (project, hour, outcome, category, reason). */
export class OutcomeSums {
  private readonly sums = new Map<string, OutcomeSum>();

  add(record: OutcomeRecord): void {
    const id = outcomeCounterOf(record);
    const sum = this.sums.get(id);
    if (sum) sum.quantity += record.quantity;
    else this.sums.set(id, { projectId: Number(record.projectId), hour: hourOf(record.timestamp), outcome: record.outcome, category: record.category, reason: record.reason ?? "", quantity: record.quantity });
  }

  values(): IterableIterator<OutcomeSum> {
    return this.sums.values();
  }
}
