"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { AppError } from "@/src/errors";
import { LEGACY_BROWSER_SUBFILTERS, type InboundFilterId } from "@/src/model";
import { getRuntime } from "@/src/runtime";
import { setFilterLists, setInboundFilter } from "@/src/services/projects/inbound-filters";
import { loadWorkspace } from "@/src/services/ui/workspace";

async function filtersPage(organizationSlug: string, projectSlug: string) {
  const runtime = getRuntime();
  const { access, actor } = await actionAccess(organizationSlug, "project:write");
  const { project } = await loadWorkspace(runtime.storage, access, projectSlug);
  if (!project) throw new AppError("not_found", "project not found");
  const refresh = () => {
    runtime.invalidateKeys();
    revalidatePath(`/settings/${access.organization.slug}/projects/${project.slug}/filters`);
  };
  return { runtime, actor, project, refresh };
}

/** Saves the four filters from their checkboxes (legacy browsers: one checkbox per subfilter). */
export async function saveFiltersAction(organizationSlug: string, projectSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, actor, project, refresh } = await filtersPage(organizationSlug, projectSlug);
    for (const id of ["browser-extensions", "localhost", "web-crawlers"] as const satisfies InboundFilterId[]) {
      await setInboundFilter(runtime.storage, actor, project, id, { active: form.get(id) === "on" });
    }
    const subfilters = LEGACY_BROWSER_SUBFILTERS.filter((sub) => form.get(`legacy-${sub}`) === "on");
    await setInboundFilter(runtime.storage, actor, project, "legacy-browsers", { subfilters });
    refresh();
    return { message: "Filters saved." };
  });
}

/** Saves the error-message and release globs and the address list (one per line). */
export async function saveFilterListsAction(organizationSlug: string, projectSlug: string, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { runtime, actor, project, refresh } = await filtersPage(organizationSlug, projectSlug);
    await setFilterLists(runtime.storage, actor, project, {
      "filters:error_messages": String(form.get("errorMessages") ?? ""),
      "filters:releases": String(form.get("releases") ?? ""),
      "filters:blacklisted_ips": String(form.get("ipAddresses") ?? ""),
    });
    refresh();
    return { message: "Custom filters saved." };
  });
}
