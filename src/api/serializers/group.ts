/**
 * Sentry's Group ("issue") shape, as GroupSerializer and StreamGroupSerializer write it.
 * Sentry-specific parts we do not have (subscriptions, sharing) answer with their empty values so
 * clients written for Sentry read them unchanged; assignee, bookmark, inbox and comment count come
 * from the issue workflow when the caller passes them (GroupTriage).
 */
import type { Level } from "../../processing/types";
import type { Issue, IssueStatusDetails, IssueSubstatus, IssueWithStats, Organization, Project } from "../../model";
import { isoDate } from "./common";

const HOUR_MS = 3_600_000;

/** Sentry's substatus names; a resolved issue has none. */
const SUBSTATUS: Record<IssueSubstatus, string | null> = {
  new: "new",
  ongoing: "ongoing",
  regressed: "regressed",
  escalating: "escalating",
  archived: "archived_forever",
  archived_until_condition_met: "archived_until_condition_met",
  archived_until_escalating: "archived_until_escalating",
  resolved: null,
};

/** Sentry's initial priority for error issues follows the level. */
const PRIORITY: Record<Level, "high" | "medium" | "low"> = {
  fatal: "high",
  error: "high",
  warning: "medium",
  info: "low",
  debug: "low",
};

export interface GroupJson {
  id: string;
  shareId: null;
  shortId: string;
  title: string;
  culprit: string;
  permalink: string;
  logger: null;
  level: Level;
  status: Issue["status"];
  statusDetails: StatusDetailsJson;
  substatus: string | null;
  isPublic: boolean;
  platform: string | null;
  project: { id: string; name: string; slug: string; platform: string | null };
  type: Issue["type"];
  issueType: "error";
  issueCategory: "error";
  priority: "high" | "medium" | "low";
  priorityLockedAt: null;
  metadata: Issue["metadata"];
  numComments: number;
  assignedTo: AssigneeJson | null;
  /** Sentry's inbox (for_review): why the issue waits for review, or false once reviewed. */
  inbox: { reason: number; reason_details: null; date_added: string } | false;
  isBookmarked: boolean;
  isSubscribed: boolean;
  subscriptionDetails: null;
  hasSeen: boolean;
  annotations: never[];
  count: string;
  userCount: number;
  firstSeen: string;
  lastSeen: string;
  firstRelease: { version: string } | null;
  lastRelease: { version: string } | null;
  stats?: { "24h": [number, number][] } | { "14d": [number, number][] };
}

export type AssigneeJson = { type: "user"; id: string; name: string; email: string } | { type: "team"; id: string; name: string; slug: string };

/** Sentry's statusDetails: why an ignored issue comes back, or which release resolved it. */
export type StatusDetailsJson = {
  ignoreUntil?: string;
  ignoreCount?: number;
  ignoreWindow?: number;
  ignoreUserCount?: number;
  inRelease?: string;
  inNextRelease?: boolean;
};

/** What the issue workflow adds for the caller (issue-workflow.ts); absent = nothing assigned, bookmarked or reviewed. */
export interface GroupTriage {
  assignee: AssigneeJson | null;
  isBookmarked: boolean;
  reviewed: boolean;
  numComments: number;
}

export function statusDetailsJson(details: IssueStatusDetails | null): StatusDetailsJson {
  if (details === null) return {};
  if (details.kind === "resolve") return details.type === "in_release" ? { inRelease: details.release } : { inNextRelease: true };
  const json: StatusDetailsJson = {};
  if (details.until !== null) json.ignoreUntil = isoDate(details.until);
  if (details.count !== null && !details.escalating) json.ignoreCount = details.count;
  if (details.window !== null && !details.escalating) json.ignoreWindow = details.window;
  if (details.userCount !== null) json.ignoreUserCount = details.userCount;
  return json;
}

// Sentry's GroupInboxReason: 0 new, 2 regression, 3 unignored, 6 escalating.
const INBOX_REASON: Partial<Record<IssueSubstatus, number>> = { regressed: 2, escalating: 6 };

export interface GroupScope {
  project: Project;
  organization: Organization;
  publicUrl: string;
}

/** `[[hour start in Unix seconds, events], ...]`, oldest first, the hour containing `now` last. */
export function hourlySeries(counts: number[], now: number): [number, number][] {
  const lastHour = Math.floor(now / HOUR_MS) * HOUR_MS;
  return counts.map((count, index) => [(lastHour - (counts.length - 1 - index) * HOUR_MS) / 1000, count]);
}

/** Sentry's 14d series: `[UTC day start in Unix seconds, events]`, oldest first, the last being today. */
export function dailySeries(counts: number[], now: number): [number, number][] {
  const lastDay = Math.floor(now / (24 * HOUR_MS)) * 24 * HOUR_MS;
  return counts.map((count, index) => [(lastDay - (counts.length - 1 - index) * 24 * HOUR_MS) / 1000, count]);
}

export function issuePermalink(scope: Omit<GroupScope, "project">, issueId: string): string {
  return `${scope.publicUrl}/organizations/${scope.organization.slug}/issues/${issueId}/`;
}

/** With `stats` (list endpoints), the 24-hour (or, asked for and computed, 14-day) series for `stats.now` is included. */
export function serializeGroup(
  issue: Issue | IssueWithStats,
  scope: GroupScope,
  stats: { now: number; period?: "24h" | "14d" } | null = null,
  triage: GroupTriage | null = null,
): GroupJson {
  const { project } = scope;
  const json: GroupJson = {
    id: issue.id,
    shareId: null,
    shortId: issue.shortId,
    title: issue.title,
    culprit: issue.culprit,
    permalink: issuePermalink(scope, issue.id),
    logger: null,
    level: issue.level,
    status: issue.status,
    statusDetails: statusDetailsJson(issue.statusDetails),
    substatus: SUBSTATUS[issue.substatus],
    isPublic: false,
    platform: project.platform,
    project: { id: project.id, name: project.name, slug: project.slug, platform: project.platform },
    type: issue.type,
    issueType: "error",
    issueCategory: "error",
    priority: PRIORITY[issue.level],
    priorityLockedAt: null,
    metadata: issue.metadata,
    numComments: triage?.numComments ?? 0,
    assignedTo: triage?.assignee ?? null,
    inbox:
      triage?.reviewed || issue.status !== "unresolved"
        ? false
        : { reason: INBOX_REASON[issue.substatus] ?? 0, reason_details: null, date_added: isoDate(issue.firstSeen) },
    isBookmarked: triage?.isBookmarked ?? false,
    isSubscribed: false,
    subscriptionDetails: null,
    hasSeen: false,
    annotations: [],
    count: String(issue.count),
    userCount: issue.userCount,
    firstSeen: isoDate(issue.firstSeen),
    lastSeen: isoDate(issue.lastSeen),
    firstRelease: issue.firstRelease ? { version: issue.firstRelease } : null,
    lastRelease: issue.lastRelease ? { version: issue.lastRelease } : null,
  };
  if (stats && "stats24h" in issue) {
    json.stats = stats.period === "14d" && issue.stats14d ? { "14d": dailySeries(issue.stats14d, stats.now) } : { "24h": hourlySeries(issue.stats24h, stats.now) };
  }
  return json;
}
