/** What the issue workflow shows beside issues for one person: assignee (named), bookmark, review, comments. */
import type { IssueActivity, Organization, User } from "../../model";
import type { Storage } from "../../storage/types";

export type AssigneeView = { type: "user"; id: string; name: string; email: string } | { type: "team"; id: string; name: string; slug: string };

export interface IssueTriageView {
  assignee: AssigneeView | null;
  isBookmarked: boolean;
  reviewed: boolean;
  numComments: number;
}

export async function issueTriageFor(storage: Storage, organization: Organization, userId: string, issueIds: string[]): Promise<Map<string, IssueTriageView>> {
  const { issueTriage, accounts } = storage;
  const [assignments, bookmarked, reviewed, notes] = await Promise.all([
    issueTriage.assignments(issueIds),
    issueTriage.bookmarked(userId, issueIds),
    issueTriage.reviewed(issueIds),
    issueTriage.countNotes(issueIds),
  ]);
  const needsNames = [...assignments.values()].length > 0;
  const [members, teams] = needsNames
    ? await Promise.all([accounts.members.listByOrganization(organization.id), accounts.teams.listByOrganization(organization.id)])
    : [[], []];
  const users = new Map(members.map((m) => [m.userId, m.user]));
  const teamById = new Map(teams.map((t) => [t.id, t]));
  const views = new Map<string, IssueTriageView>();
  for (const id of issueIds) {
    const assigned = assignments.get(id);
    let assignee: AssigneeView | null = null;
    if (assigned?.kind === "user") {
      const user = users.get(assigned.userId);
      assignee = { type: "user", id: assigned.userId, name: user?.name || user?.email || `user ${assigned.userId}`, email: user?.email ?? "" };
    } else if (assigned?.kind === "team") {
      const team = teamById.get(assigned.teamId);
      assignee = { type: "team", id: assigned.teamId, name: team?.name ?? `team ${assigned.teamId}`, slug: team?.slug ?? "" };
    }
    views.set(id, { assignee, isBookmarked: bookmarked.has(id), reviewed: reviewed.has(id), numComments: notes.get(id) ?? 0 });
  }
  return views;
}

export interface ActivityView extends IssueActivity {
  user: Pick<User, "id" | "name" | "email"> | null;
}

/** The issue's activity, newest first, with the people named. */
export async function issueActivity(storage: Storage, organization: Organization, issueId: string, limit = 200): Promise<ActivityView[]> {
  const [entries, members] = await Promise.all([
    storage.issueTriage.listActivity(issueId, limit),
    storage.accounts.members.listByOrganization(organization.id),
  ]);
  const users = new Map(members.map((m) => [m.userId, m.user]));
  return entries.map((entry) => {
    const user = entry.userId === null ? undefined : users.get(entry.userId);
    return { ...entry, user: user ? { id: user.id, name: user.name, email: user.email } : null };
  });
}

export interface IssueWorkflowView {
  triage: IssueTriageView;
  activity: ActivityView[];
  /** Who it can be assigned to. */
  people: { userId: string; name: string; email: string }[];
  teams: { id: string; slug: string; name: string }[];
}

/** Everything the issue page's workflow panel shows, for the signed-in person. */
export async function issueWorkflowView(storage: Storage, organization: Organization, userId: string, issueId: string): Promise<IssueWorkflowView> {
  const [triage, activity, members, teams] = await Promise.all([
    issueTriageFor(storage, organization, userId, [issueId]),
    issueActivity(storage, organization, issueId),
    storage.accounts.members.listByOrganization(organization.id),
    storage.accounts.teams.listByOrganization(organization.id),
  ]);
  return {
    triage: triage.get(issueId)!,
    activity,
    people: members.map((m) => ({ userId: m.userId, name: m.user.name, email: m.user.email })),
    teams: teams.map((t) => ({ id: t.id, slug: t.slug, name: t.name })),
  };
}

/** Who issues can be assigned to in the organisation (the assign menus). */
export async function assigneeChoices(storage: Storage, organization: Organization): Promise<Pick<IssueWorkflowView, "people" | "teams">> {
  const [members, teams] = await Promise.all([storage.accounts.members.listByOrganization(organization.id), storage.accounts.teams.listByOrganization(organization.id)]);
  return {
    people: members.map((m) => ({ userId: m.userId, name: m.user.name, email: m.user.email })),
    teams: teams.map((t) => ({ id: t.id, slug: t.slug, name: t.name })),
  };
}
