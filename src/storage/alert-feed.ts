/**
 * What the ingest commit writes to the alert feed (alert_issue_feed, issue 34) for one issue's delta,
 * in the same transaction as the issue change, so a trigger is never lost to a crash between the
 * two and the SDK's answer never waits for rule evaluation (docs/adr/0019-alert-outbox.md).
 * Shared by both engines; each writes the row with its own SQL, reading the issue's status before
 * the delta is applied (NULL for an issue the batch created).
 */
import type { IssueDelta } from "./issue-deltas";

/** Bounds per row: a batch of one issue from many users or with many tag values stays small. */
const MAX_USERS = 1000;
const MAX_TAGS = 200;

export interface FeedValues {
  count: number;
  users: string;
  level: string;
  release: string | null;
  tags: string;
}

export function feedValuesOf(delta: IssueDelta): FeedValues {
  const users = delta.userKeys.size <= MAX_USERS ? [...delta.userKeys] : [...delta.userKeys].slice(0, MAX_USERS);
  const tags: [string, string][] = [];
  for (const tag of delta.tags.values()) {
    if (tags.length >= MAX_TAGS) break;
    tags.push([tag.key, tag.value]);
  }
  return { count: delta.count, users: JSON.stringify(users), level: delta.level, release: delta.lastRelease, tags: JSON.stringify(tags) };
}
