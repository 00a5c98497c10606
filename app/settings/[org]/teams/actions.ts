"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { createTeam, resolveTeam, setTeamMembership, setTeamProject } from "@/src/services/accounts/teams";
import { resolveProject } from "@/src/services/organizations/resolve";

const refresh = (slug: string) => revalidatePath(`/settings/${slug}/teams`);

export async function createTeamAction(organizationSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { access, actor } = await actionAccess(organizationSlug);
    const team = await createTeam(getRuntime().storage, access, actor, { name: String(form.get("name") ?? "") });
    refresh(access.organization.slug);
    return { message: `Team ${team.name} created.` };
  });
}

/** Adds (join) or removes a member: the bound one, else the one chosen in the form. */
export async function teamMemberAction(organizationSlug: string, teamSlug: string, join: boolean, boundMemberId: string | null, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { storage } = getRuntime();
    const { access, actor } = await actionAccess(organizationSlug);
    const team = await resolveTeam(storage, access, teamSlug);
    await setTeamMembership(storage, access, actor, team, boundMemberId ?? String(form.get("member") ?? ""), join);
    refresh(access.organization.slug);
  });
}

export async function teamProjectAction(organizationSlug: string, teamSlug: string, owns: boolean, boundProject: string | null, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { storage } = getRuntime();
    const { access, actor } = await actionAccess(organizationSlug);
    const team = await resolveTeam(storage, access, teamSlug);
    const project = await resolveProject(storage, access.organization.slug, boundProject ?? String(form.get("project") ?? ""));
    await setTeamProject(storage, access, actor, team, project, owns);
    refresh(access.organization.slug);
  });
}
