import type { Metadata } from "next";
import { ActionForm } from "@/components/action-form";
import { AppShell, issuesHref } from "@/components/app-shell";
import { formatAbsolute } from "@/components/format";
import { requestNow } from "@/components/request-now";
import { SettingsNav } from "@/components/settings-nav";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass, Pill, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { ROLE_RANK, ROLES, type Role } from "@/src/auth/scopes";
import { getRuntime } from "@/src/runtime";
import { hasScope } from "@/src/services/accounts/access";
import { listMembers, listPendingInvites } from "@/src/services/accounts/members";
import { listTeams } from "@/src/services/accounts/teams";
import type { MemberWithUser } from "@/src/model";
import { cancelInviteAction, changeRoleAction, inviteAction, removeMemberAction, transferOwnershipAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const workspace = await requireWorkspace(org, `/settings/${org}/members`);
  const { access, organization } = workspace;
  const { storage } = getRuntime();
  const now = requestNow();
  const members = await listMembers(storage, access);
  const canManage = hasScope(access, "member:write");
  // Nobody grants a role above their own; only owners make owners (the service enforces both).
  const grantable = ROLES.filter((role) => ROLE_RANK[role] <= ROLE_RANK[access.role] && (role !== "owner" || hasScope(access, "member:admin")));
  const [teams, invites] = canManage
    ? await Promise.all([listTeams(storage, access), listPendingInvites(storage, access, now)])
    : [[], []];
  const slug = organization.slug;
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => issuesHref(slug, p)}>
      <SettingsNav workspace={workspace} active="members" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <h1 className="text-xl font-semibold">Members</h1>
          <p className="text-muted">People in {organization.name} and their roles. Viewers can only read; members can also resolve issues; admins manage projects, teams and members.</p>
        </div>

        {canManage ? (
          <Section title="Invite" id="invite">
            <Card className="p-4">
              <ActionForm action={inviteAction.bind(null, slug)} testId="invite-form" secretLabel="Invite link — send it to the person; it will not be shown again.">
                <div className="grid gap-3 sm:grid-cols-2">
                  <div>
                    <label htmlFor="invite-role" className="mb-1 block text-sm font-medium">
                      Role
                    </label>
                    <select id="invite-role" name="role" defaultValue="member" className={inputClass}>
                      {grantable.map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div>
                    <label htmlFor="invite-email" className="mb-1 block text-sm font-medium">
                      Email (optional: only this address may use the link)
                    </label>
                    <input id="invite-email" name="email" type="email" maxLength={254} className={inputClass} />
                  </div>
                </div>
                {teams.length > 0 ? (
                  <fieldset className="mt-3">
                    <legend className="mb-1 text-sm font-medium">Teams to join</legend>
                    <div className="flex flex-wrap gap-3">
                      {teams.map((team) => (
                        <label key={team.id} className="flex items-center gap-2 text-sm">
                          <input type="checkbox" name="teams" value={team.id} defaultChecked={team.slug === "default"} />
                          {team.name}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                ) : null}
                <div className="mt-3">
                  <SubmitButton className={buttonClass.primary}>Create invite link</SubmitButton>
                </div>
              </ActionForm>
              {invites.length > 0 ? (
                <div className="mt-4">
                  <h3 className="mb-1 text-sm font-medium">Pending invites</h3>
                  <ul className="divide-y divide-line rounded-md border border-line" data-testid="pending-invites">
                    {invites.map((invite) => (
                      <li key={invite.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                        <span>
                          <Pill>{invite.role}</Pill> {invite.email ?? "anyone with the link"} · expires {formatAbsolute(invite.expiresAt).slice(0, 10)}
                        </span>
                        <ActionForm action={cancelInviteAction.bind(null, slug, invite.id)}>
                          <SubmitButton className={buttonClass.ghost}>Cancel</SubmitButton>
                        </ActionForm>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </Card>
          </Section>
        ) : null}

        <Section title={`Members (${members.length})`} id="members">
          <Card>
            <ul className="divide-y divide-line" data-testid="member-list">
              {members.map((member) => (
                <MemberRow
                  key={member.id}
                  member={member}
                  slug={slug}
                  self={member.id === access.member.id}
                  canManage={canManage && ROLE_RANK[member.role] <= ROLE_RANK[access.role]}
                  canTransfer={access.role === "owner" && member.id !== access.member.id}
                  grantable={grantable}
                />
              ))}
            </ul>
          </Card>
        </Section>
      </div>
    </AppShell>
  );
}

function MemberRow({
  member,
  slug,
  self,
  canManage,
  canTransfer,
  grantable,
}: {
  member: MemberWithUser;
  slug: string;
  self: boolean;
  canManage: boolean;
  canTransfer: boolean;
  grantable: readonly Role[];
}) {
  return (
    <li className="flex flex-col gap-2 px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="member-row">
      <div className="min-w-0">
        <p className="font-medium">
          {member.user.name} {self ? <span className="text-xs text-subtle">(you)</span> : null}
        </p>
        <p className="truncate text-sm text-muted">{member.user.email}</p>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {canManage && !self ? (
          <ActionForm action={changeRoleAction.bind(null, slug, member.id)} className="flex items-center gap-1">
            <label htmlFor={`role-${member.id}`} className="sr-only">
              Role of {member.user.email}
            </label>
            <select id={`role-${member.id}`} name="role" defaultValue={member.role} className={`${inputClass} w-28`}>
              {grantable.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
            <SubmitButton className={buttonClass.secondary}>Change</SubmitButton>
          </ActionForm>
        ) : (
          <span data-testid="member-role">
            <Pill tone={member.role === "owner" ? "accent" : "neutral"}>{member.role}</Pill>
          </span>
        )}
        {canTransfer ? (
          <ActionForm action={transferOwnershipAction.bind(null, slug, member.id)}>
            <SubmitButton className={buttonClass.ghost} title="You become an admin">
              Make owner
            </SubmitButton>
          </ActionForm>
        ) : null}
        {(canManage && !self) || self ? (
          <ActionForm action={removeMemberAction.bind(null, slug, member.id)}>
            <SubmitButton className={buttonClass.ghost}>{self ? "Leave" : "Remove"}</SubmitButton>
          </ActionForm>
        ) : null}
      </div>
    </li>
  );
}
