import type { Metadata } from "next";
import { ActionForm } from "@/components/action-form";
import { AppShell, issuesHref } from "@/components/app-shell";
import { SettingsNav } from "@/components/settings-nav";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass, Pill, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { hasScope } from "@/src/services/accounts/access";
import { listTeamDetails } from "@/src/services/accounts/teams";
import type { MemberWithUser, Project, Team } from "@/src/model";
import { createTeamAction, teamMemberAction, teamProjectAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Teams" };

export default async function TeamsPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const workspace = await requireWorkspace(org, `/settings/${org}/teams`);
  const { access, organization } = workspace;
  const { storage } = getRuntime();
  const { teams: details, members, projects: allProjects } = await listTeamDetails(storage, access);
  const slug = organization.slug;
  const canManageMembers = hasScope(access, "team:write");
  const canManageProjects = hasScope(access, "project:write");
  // A team's projects are named only when this person may see them.
  const visible = workspace.projects;
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => issuesHref(slug, p)}>
      <SettingsNav workspace={workspace} active="teams" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <h1 className="text-xl font-semibold">Teams</h1>
          <p className="text-muted">Teams own projects. Members and viewers see the projects of their teams; owners and admins see every project.</p>
        </div>
        {canManageMembers ? (
          <Section title="New team" id="new-team">
            <Card className="p-4">
              <ActionForm action={createTeamAction.bind(null, slug)} className="flex flex-wrap items-end gap-2">
                <div className="min-w-48 flex-1">
                  <label htmlFor="team-name" className="mb-1 block text-sm font-medium">
                    Name
                  </label>
                  <input id="team-name" name="name" required maxLength={100} className={inputClass} />
                </div>
                <SubmitButton className={buttonClass.primary}>Create team</SubmitButton>
              </ActionForm>
            </Card>
          </Section>
        ) : null}
        {details.map(({ team, members: teamMembers, projectIds }) => (
          <TeamCard
            key={team.id}
            team={team}
            slug={slug}
            teamMembers={teamMembers}
            otherMembers={members.filter((member) => !teamMembers.some((m) => m.id === member.id))}
            projects={visible.filter((project) => projectIds.has(project.id))}
            otherProjects={canManageProjects ? allProjects.filter((project) => !projectIds.has(project.id)) : []}
            canManageMembers={canManageMembers}
            canManageProjects={canManageProjects}
          />
        ))}
      </div>
    </AppShell>
  );
}

function TeamCard({
  team,
  slug,
  teamMembers,
  otherMembers,
  projects,
  otherProjects,
  canManageMembers,
  canManageProjects,
}: {
  team: Team;
  slug: string;
  teamMembers: MemberWithUser[];
  otherMembers: MemberWithUser[];
  projects: Project[];
  otherProjects: Project[];
  canManageMembers: boolean;
  canManageProjects: boolean;
}) {
  return (
    <Section title={`${team.name} · ${team.slug}`} id={`team-${team.slug}`}>
      <Card className="grid gap-4 p-4 md:grid-cols-2">
        <div data-testid="team-members">
          <h3 className="mb-2 text-sm font-medium">Members ({teamMembers.length})</h3>
          <ul className="space-y-1">
            {teamMembers.map((member) => (
              <li key={member.id} className="flex items-center justify-between gap-2 text-sm">
                <span className="truncate">
                  {member.user.email} <Pill>{member.role}</Pill>
                </span>
                {canManageMembers ? (
                  <ActionForm action={teamMemberAction.bind(null, slug, team.slug, false, member.id)}>
                    <SubmitButton className={buttonClass.ghost}>Remove</SubmitButton>
                  </ActionForm>
                ) : null}
              </li>
            ))}
          </ul>
          {canManageMembers && otherMembers.length > 0 ? (
            <ActionForm action={teamMemberAction.bind(null, slug, team.slug, true, null)} className="mt-2 flex items-center gap-2">
              <label htmlFor={`add-member-${team.id}`} className="sr-only">
                Member to add to {team.name}
              </label>
              <select id={`add-member-${team.id}`} name="member" className={inputClass}>
                {otherMembers.map((member) => (
                  <option key={member.id} value={member.id}>
                    {member.user.email}
                  </option>
                ))}
              </select>
              <SubmitButton className={buttonClass.secondary}>Add</SubmitButton>
            </ActionForm>
          ) : null}
        </div>
        <div data-testid="team-projects">
          <h3 className="mb-2 text-sm font-medium">Projects ({projects.length})</h3>
          <ul className="space-y-1">
            {projects.map((project) => (
              <li key={project.id} className="flex items-center justify-between gap-2 text-sm">
                <span className="truncate">
                  {project.name} <span className="font-mono text-xs text-subtle">{project.slug}</span>
                </span>
                {canManageProjects ? (
                  <ActionForm action={teamProjectAction.bind(null, slug, team.slug, false, project.slug)}>
                    <SubmitButton className={buttonClass.ghost}>Remove</SubmitButton>
                  </ActionForm>
                ) : null}
              </li>
            ))}
          </ul>
          {otherProjects.length > 0 ? (
            <ActionForm action={teamProjectAction.bind(null, slug, team.slug, true, null)} className="mt-2 flex items-center gap-2">
              <label htmlFor={`add-project-${team.id}`} className="sr-only">
                Project to give to {team.name}
              </label>
              <select id={`add-project-${team.id}`} name="project" className={inputClass}>
                {otherProjects.map((project) => (
                  <option key={project.id} value={project.slug}>
                    {project.name}
                  </option>
                ))}
              </select>
              <SubmitButton className={buttonClass.secondary}>Add</SubmitButton>
            </ActionForm>
          ) : null}
        </div>
      </Card>
    </Section>
  );
}
