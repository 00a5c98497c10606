/** Who a rule's actions reach: email addresses (members who turned email off for the project left out) and webhooks. */
import { EMAIL_ACTION, type AlertAction, type MemberWithUser, type Organization, type Project, type WebhookFormat } from "../../model";
import type { Storage } from "../../storage/types";

export type Recipient =
  | { channel: "email"; target: string }
  | { channel: "webhook"; target: string; format: WebhookFormat };

async function teamMembers(storage: Storage, teamIds: string[]): Promise<MemberWithUser[]> {
  const lists = await Promise.all(teamIds.map((teamId) => storage.accounts.teams.listMembers(teamId)));
  return lists.flat();
}

/** Members an email action names; IssueOwners are the members of the project's teams (no ownership rules yet). */
async function membersOf(storage: Storage, organization: Organization, project: Project, action: Extract<AlertAction, { id: typeof EMAIL_ACTION }>): Promise<MemberWithUser[]> {
  switch (action.targetType) {
    case "IssueOwners":
      return teamMembers(storage, (await storage.accounts.teams.listForProject(project.id)).map((team) => team.id));
    case "Team": {
      const team = await storage.accounts.teams.getById(action.targetIdentifier ?? "");
      return team && team.organizationId === organization.id ? teamMembers(storage, [team.id]) : [];
    }
    case "Member": {
      const member = (await storage.accounts.members.listByOrganization(organization.id)).find((m) => m.userId === action.targetIdentifier);
      return member ? [member] : [];
    }
    case "Address":
      return [];
  }
}

export async function recipientsOf(storage: Storage, organization: Organization, project: Project, actions: AlertAction[]): Promise<Recipient[]> {
  const out = new Map<string, Recipient>();
  for (const action of actions) {
    if (action.id !== EMAIL_ACTION) {
      out.set(`webhook\u0000${action.url}\u0000${action.format}`, { channel: "webhook", target: action.url, format: action.format });
      continue;
    }
    if (action.targetType === "Address" && action.targetIdentifier) {
      out.set(`email\u0000${action.targetIdentifier.toLowerCase()}`, { channel: "email", target: action.targetIdentifier.toLowerCase() });
      continue;
    }
    const members = await membersOf(storage, organization, project, action);
    const off = await storage.alerts.settings.emailOffAmong(project.id, members.map((m) => m.userId));
    for (const member of members) {
      if (!off.has(member.userId)) out.set(`email\u0000${member.user.email}`, { channel: "email", target: member.user.email });
    }
  }
  return [...out.values()];
}
