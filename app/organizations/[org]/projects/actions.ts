"use server";

import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { appErrorOf } from "@/components/app-error";
import { getRuntime } from "@/src/runtime";
import { createProject, createProjectInput } from "@/src/services/projects/create-project";
import { resolveTeam } from "@/src/services/accounts/teams";
import { actionAccess } from "@/app/_lib/session";

export interface CreateProjectState {
  /** A problem with the whole form (e.g. the slug is taken). */
  error: string | null;
  fieldErrors: Partial<Record<"name" | "slug" | "platform", string>>;
  values: { name: string; slug: string; platform: string; team: string };
}

export async function createProjectAction(organizationSlug: string, _previous: CreateProjectState, form: FormData): Promise<CreateProjectState> {
  const values = {
    name: String(form.get("name") ?? ""),
    slug: String(form.get("slug") ?? "").trim(),
    platform: String(form.get("platform") ?? ""),
    team: String(form.get("team") ?? ""),
  };
  const parsed = createProjectInput.safeParse({
    name: values.name,
    slug: values.slug === "" ? undefined : values.slug,
    platform: values.platform === "" ? null : values.platform,
  });
  if (!parsed.success) {
    const fieldErrors: CreateProjectState["fieldErrors"] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === "name" || field === "slug" || field === "platform") && !fieldErrors[field]) {
        fieldErrors[field] = `${field === "name" ? "Name" : field === "slug" ? "Slug" : "Platform"} ${issue.message}`;
      }
    }
    return { error: null, fieldErrors, values };
  }
  const runtime = getRuntime();
  let projectSlug: string;
  try {
    // project:write, and the project belongs to a team so members of that team can see it.
    const { access, actor } = await actionAccess(organizationSlug, "project:write");
    const team = await resolveTeam(runtime.storage, access, values.team);
    const { project } = await createProject(runtime.storage, actor, access.organization, team, parsed.data);
    runtime.invalidateKeys();
    projectSlug = project.slug;
  } catch (error) {
    const appError = appErrorOf(error);
    if (!appError) throw error;
    return { error: appError.message, fieldErrors: {}, values };
  }
  revalidatePath(`/organizations/${organizationSlug}`, "layout");
  redirect(`/settings/${organizationSlug}/projects/${projectSlug}/keys?created=1`);
}
