/**
 * Applying an issue update (issue-update-input.ts) to one issue: status with its details (ignore
 * until…, resolve in release), assignment, bookmark, review, each change written to the activity
 * log. Used by the API (single and bulk) and the issue page.
 */
import { AppError } from "../../errors";
import type { IgnoreDetails, Issue, IssueAssignee, IssueStatusDetails, Organization, Project, User } from "../../model";
import { compareReleases } from "../../model/release-order";
import type { Storage } from "../../storage/types";
import type { IssueUpdate, StatusChange } from "./issue-update-input";

const HOUR_MS = 3_600_000;
const WEEK_MS = 7 * 24 * HOUR_MS;

export interface Actor {
  user: User;
  organization: Organization;
}

/** The newest release the project has seen or made (semver order, else by date); null when none. */
export async function latestRelease(storage: Storage, project: Project): Promise<string | null> {
  const [explicit, implicit] = await Promise.all([
    storage.releases.list(project.organizationId, { projectIds: [project.id], limit: 1000 }),
    storage.releaseActivity.forProjects([project.id]),
  ]);
  const dates = new Map<string, number>();
  for (const r of implicit) if (r.firstEvent !== null) dates.set(r.version, r.firstEvent);
  for (const r of explicit) dates.set(r.version, r.dateReleased ?? r.dateCreated);
  let latest: string | null = null;
  for (const version of dates.keys()) {
    if (latest === null || compareReleases(version, latest, (v) => dates.get(v) ?? null) > 0) latest = version;
  }
  return latest;
}

/** The status details a change stores (null for plain resolve / unresolve / ignore forever). */
async function detailsOf(storage: Storage, issue: Issue, project: Project, change: StatusChange, actorId: string, now: number): Promise<IssueStatusDetails | null> {
  if (change.status === "unresolved") return null;
  if (change.status === "resolved") {
    if (change.release === null) return null;
    const requested = change.release.type === "in_release" ? change.release.version : "latest";
    const version = requested === "latest" ? await latestRelease(storage, project) : requested;
    if (version === null) {
      const field = change.release.type === "in_release" ? "inRelease" : "inNextRelease";
      throw new AppError("bad_request", `statusDetails.${field}: the project has no release yet`);
    }
    return { kind: "resolve", actorId, type: change.release.type, release: version };
  }
  const base: IgnoreDetails = {
    kind: "ignore", ignoredAt: now, actorId, until: null, count: null, window: null, countTarget: null, userCount: null, userTarget: null, escalating: false,
  };
  if (change.escalating) {
    // Escalating: an hour with more than twice the busiest hour of the week before (at least 1 event more).
    const busiest = await storage.issues.maxHourlyCount(issue.id, now - WEEK_MS);
    return { ...base, escalating: true, count: Math.max(1, busiest * 2 + 1), window: 60 };
  }
  const details: IgnoreDetails = {
    ...base,
    until: change.until === null ? null : "at" in change.until ? change.until.at : now + change.until.minutes * 60_000,
    count: change.count,
    window: change.window,
    countTarget: change.count !== null && change.window === null ? issue.count + change.count : null,
    userCount: change.userCount,
    userTarget: change.userCount !== null ? issue.userCount + change.userCount : null,
  };
  return details.until === null && details.count === null && details.userCount === null ? null : details;
}

/** "user:ID", "team:ID", "#team-slug", a member's email or user id → the assignee, or a 400 naming it. */
export async function resolveAssignee(storage: Storage, organization: Organization, identifier: string): Promise<IssueAssignee> {
  const unknown = () => new AppError("bad_request", `assignedTo: unknown assignee "${identifier}": not a member or team of this organisation`);
  const teamId = /^team:(\d+)$/.exec(identifier)?.[1];
  if (teamId !== undefined || identifier.startsWith("#")) {
    const team = teamId !== undefined ? await storage.accounts.teams.getById(teamId) : await storage.accounts.teams.getBySlug(organization.id, identifier.slice(1));
    if (!team || team.organizationId !== organization.id) throw unknown();
    return { kind: "team", teamId: team.id };
  }
  const userId = /^(?:user:)?(\d+)$/.exec(identifier)?.[1];
  const members = await storage.accounts.members.listByOrganization(organization.id);
  const member = members.find((m) => (userId !== undefined ? m.userId === userId : m.user.email === identifier.trim().toLowerCase()));
  if (!member) throw unknown();
  return { kind: "user", userId: member.userId };
}

const ACTIVITY_OF_STATUS: Record<Issue["status"], string> = { resolved: "set_resolved", unresolved: "set_unresolved", ignored: "set_ignored" };

/** Applies `update` to the issue (already authorised) and answers the issue as it is now. */
export async function applyIssueUpdate(storage: Storage, actor: Actor, issue: Issue, project: Project, update: IssueUpdate, now = Date.now()): Promise<Issue> {
  const { issueTriage } = storage;
  const userId = actor.user.id;
  // Everything that can be refused is checked before anything changes.
  const assignee = update.assignedTo === undefined || update.assignedTo === null ? update.assignedTo : await resolveAssignee(storage, actor.organization, update.assignedTo);
  const details = update.status ? await detailsOf(storage, issue, project, update.status, userId, now) : undefined;
  let current = issue;
  if (update.status && details !== undefined) {
    current = (await storage.issues.setStatus(issue.id, update.status.status, details)) ?? current;
    // Setting what is already set (a client re-sending the status) leaves no activity entry.
    const unchanged = issue.status === update.status.status && details === null && issue.statusDetails === null;
    if (!unchanged) await issueTriage.addActivity({ issueId: issue.id, type: ACTIVITY_OF_STATUS[update.status.status], userId, data: activityDataOf(details), now });
    if (update.status.status === "unresolved" && issue.status !== "unresolved") await issueTriage.setReviewed(issue.id, null, false, now);
  }
  if (assignee !== undefined) {
    const changed = await issueTriage.assign(issue.id, assignee, now);
    if (changed) {
      await issueTriage.addActivity({
        issueId: issue.id, type: assignee === null ? "unassigned" : "assigned", userId,
        data: assignee === null ? {} : assignee.kind === "user" ? { assigneeType: "user", assignee: assignee.userId } : { assigneeType: "team", assignee: assignee.teamId },
        now,
      });
    }
  }
  if (update.isBookmarked !== undefined) await issueTriage.setBookmark(issue.id, userId, update.isBookmarked, now);
  if (update.inbox !== undefined) {
    await issueTriage.setReviewed(issue.id, userId, !update.inbox, now);
    if (!update.inbox) await issueTriage.addActivity({ issueId: issue.id, type: "mark_reviewed", userId, data: {}, now });
  }
  return current;
}

function activityDataOf(details: IssueStatusDetails | null): Record<string, unknown> {
  if (details === null) return {};
  if (details.kind === "resolve") return details.type === "in_release" ? { inRelease: details.release } : { inNextRelease: true, current: details.release };
  const data: Record<string, unknown> = {};
  if (details.escalating) data.substatus = "archived_until_escalating";
  if (details.until !== null) data.ignoreUntil = new Date(details.until).toISOString();
  if (details.count !== null) data.ignoreCount = details.count;
  if (details.window !== null && !details.escalating) data.ignoreWindow = details.window;
  if (details.userCount !== null) data.ignoreUserCount = details.userCount;
  return data;
}

/** A comment: markdown text, 1–10,000 characters, stored as a `note` activity. */
export async function addIssueNote(storage: Storage, issueId: string, userId: string, text: unknown, now = Date.now()) {
  if (typeof text !== "string" || text.trim() === "") throw new AppError("bad_request", "text: expected a non-empty comment");
  if (text.length > 10_000) throw new AppError("bad_request", "text: at most 10,000 characters");
  return storage.issueTriage.addActivity({ issueId, type: "note", userId, data: { text }, now });
}
