/**
 * When an event brings an ignored or resolved issue back, shared by both engines' commit paths
 * (sqlite/ingest.ts, postgres/ingest.ts). The commit reads each touched issue's status and
 * status_details with its counter update (RETURNING); only issues that are not unresolved get here,
 * so the common case costs nothing.
 *
 * Regression semantics (also read by alerts):
 * - resolved with no release: any new event reopens it as `regressed`;
 * - resolved in release X (in_release): an event from X or a newer release reopens it; from an
 *   older release, or with no release, it stays resolved (Sentry: the fix ships in X);
 * - resolved in the next release after L (in_next_release): only a release newer than L reopens;
 * - ignored: comes back `ongoing` (or `escalating`) when its condition passes; ignored forever stays.
 * Each reopening writes an activity row (set_regression / set_unresolved / set_escalating) and
 * removes the issue's issue_reviews row, putting it back in the for_review inbox.
 */
import type { IssueStatusDetails, IssueSubstatus } from "../model";
import type { IssueDelta } from "./issue-deltas";
import { compareReleases, compareSemverReleases } from "../model/release-order";

export interface TouchedIssue {
  id: number;
  projectId: number;
  status: string;
  statusDetails: IssueStatusDetails | null;
  /** After this batch's counts were added. */
  timesSeen: number;
  userCount: number;
}

export interface Reopening {
  issueId: number;
  substatus: Extract<IssueSubstatus, "regressed" | "ongoing" | "escalating">;
  activity: "set_regression" | "set_unresolved" | "set_escalating";
  data: Record<string, string | number | null>;
}

export interface TouchedRow {
  id: number;
  project_id: number;
  status: string;
  status_details: string | null;
  times_seen: number;
  user_count: number;
}

export const touchedIssue = (row: TouchedRow): TouchedIssue => ({
  id: row.id,
  projectId: row.project_id,
  status: row.status,
  statusDetails: parseStatusDetails(row.status_details),
  timesSeen: row.times_seen,
  userCount: row.user_count,
});

/** The releases of a delta's events (their `release` tags). */
export const releasesOf = (delta: IssueDelta): string[] =>
  [...delta.tags.values()].filter((tag) => tag.key === "release").map((tag) => tag.value);

export const parseStatusDetails = (text: string | null): IssueStatusDetails | null =>
  text === null || text === "" ? null : (JSON.parse(text) as IssueStatusDetails);

/** Releases a resolution must be compared by date, because they are not semver of one package. */
export function releasesNeedingDates(details: IssueStatusDetails | null, releases: string[]): string[] {
  if (details?.kind !== "resolve") return [];
  const needing = releases.filter((release) => compareSemverReleases(release, details.release) === null);
  return needing.length > 0 ? [...needing, details.release] : [];
}

/**
 * The reopening an event batch causes, or null. `releases`: the releases of the batch's events for
 * this issue; `eventsInWindow`: for a windowed count, the issue's events since the window start
 * (the engine counts them only when `windowStart` asks); `dateOf`: release dates for non-semver pairs.
 */
export function reopeningOf(
  issue: TouchedIssue,
  batch: { releases: string[]; now: number; eventsInWindow: number | null },
  dateOf: (release: string) => number | null,
): Reopening | null {
  const details = issue.statusDetails;
  if (issue.status === "resolved") {
    if (details?.kind !== "resolve") {
      return { issueId: issue.id, substatus: "regressed", activity: "set_regression", data: { version: batch.releases[0] ?? null } };
    }
    const reopenedBy = batch.releases.find((release) => {
      const order = compareReleases(release, details.release, dateOf);
      return details.type === "in_release" ? order >= 0 : order > 0;
    });
    return reopenedBy === undefined
      ? null
      : { issueId: issue.id, substatus: "regressed", activity: "set_regression", data: { version: reopenedBy, resolvedIn: details.release } };
  }
  if (issue.status !== "ignored" || details?.kind !== "ignore") return null;
  const back = (reason: string): Reopening => ({
    issueId: issue.id,
    substatus: details.escalating ? "escalating" : "ongoing",
    activity: details.escalating ? "set_escalating" : "set_unresolved",
    data: { reason },
  });
  if (details.until !== null && batch.now >= details.until) return back("ignoreUntil");
  if (details.countTarget !== null && issue.timesSeen >= details.countTarget) return back("ignoreCount");
  if (details.window !== null && details.count !== null && batch.eventsInWindow !== null && batch.eventsInWindow >= details.count) {
    return back(details.escalating ? "escalating" : "ignoreCount");
  }
  if (details.userTarget !== null && issue.userCount >= details.userTarget) return back("ignoreUserCount");
  return null;
}

/** Where a windowed count starts (Unix ms), or null when this issue needs no count. */
export function windowStart(issue: TouchedIssue, now: number): number | null {
  const details = issue.statusDetails;
  if (issue.status !== "ignored" || details?.kind !== "ignore" || details.window === null || details.count === null) return null;
  return Math.max(details.ignoredAt, now - details.window * 60_000);
}

/** The substatus a status change sets (Sentry's names). */
export function substatusFor(status: string, details: IssueStatusDetails | null): IssueSubstatus {
  if (status === "resolved") return "resolved";
  if (status !== "ignored") return "ongoing";
  if (details?.kind !== "ignore") return "archived";
  return details.escalating ? "archived_until_escalating" : "archived_until_condition_met";
}

/** Ignored issues whose time ran out, from (id, status_details) rows of ignored issues with details. */
export function expiredSnoozes(rows: { id: number; status_details: string | null }[], now: number): number[] {
  return rows
    .filter((row) => {
      const details = parseStatusDetails(row.status_details);
      return details?.kind === "ignore" && details.until !== null && details.until <= now;
    })
    .map((row) => row.id);
}
