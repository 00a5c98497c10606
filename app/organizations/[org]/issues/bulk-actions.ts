"use server";

import { revalidatePath } from "next/cache";
import type { ActionState } from "@/app/_lib/action-state";
import { runAction } from "@/app/_lib/run-action";
import { actionAccess } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { bulkUpdate, deleteIssues, mergeIssues, selectIssues } from "@/src/services/issues/issue-bulk";
import { parseIssueUpdate } from "@/src/services/issues/issue-update-input";
import { parseIssueListParams } from "@/src/services/issues/list-issues";
import { loadWorkspace } from "@/src/services/ui/workspace";
import { AppError } from "@/src/errors";

const UPDATES: Record<string, Record<string, unknown>> = {
  resolve: { status: "resolved" },
  unresolve: { status: "unresolved" },
  ignore: { status: "ignored" },
  review: { inbox: false },
  bookmark: { isBookmarked: true },
};

/**
 * The issue list's bulk actions (issue workflow): the checked issues, or every issue matching the
 * list's filters ("all matching"), then resolve / unresolve / ignore / mark reviewed / bookmark /
 * assign / merge / delete. Everything from the browser is checked again: the session and scope, the
 * projects against the person's projects, the filters and assignee by the API's parsers. `projectIds`:
 * the projects the list shows (one or several, issue search).
 */
export async function bulkIssueAction(organizationSlug: string, projectIds: string[], filters: Record<string, string>, _previous: ActionState, form: FormData): Promise<ActionState> {
  return runAction(async () => {
    const { storage } = getRuntime();
    const action = String(form.get("action") ?? "");
    const { access } = await actionAccess(organizationSlug, action === "delete" ? "event:admin" : "event:write");
    const { projects: visible } = await loadWorkspace(storage, access);
    const projects = visible.filter((project) => projectIds.includes(project.id));
    if (projects.length === 0 || projects.length !== new Set(projectIds).size) throw new AppError("not_found", "project not found");
    const all = form.get("scope") === "all";
    const ids = all ? [] : form.getAll("id").map(String);
    if (!all && ids.length === 0) throw new AppError("bad_request", "Select issues first, or choose all issues matching the filters");
    const status = filters.status || "unresolved";
    const params = parseIssueListParams({ ...filters, status: status === "all" ? undefined : status });
    const selected = await selectIssues(storage, access, projects, ids, params);
    const actor = { user: access.principal.user, organization: access.organization };
    let message: string;
    if (action === "delete") {
      message = `Deleted ${(await deleteIssues(storage, selected)).length} issues`;
    } else if (action === "merge") {
      const { children } = await mergeIssues(storage, actor, selected);
      message = `Merged ${children.length + 1} issues`;
    } else if (action === "assign") {
      await bulkUpdate(storage, actor, selected, parseIssueUpdate({ assignedTo: String(form.get("assignedTo") ?? "") }));
      message = `Assigned ${selected.length} issues`;
    } else if (Object.hasOwn(UPDATES, action)) {
      await bulkUpdate(storage, actor, selected, parseIssueUpdate(UPDATES[action]));
      message = `Updated ${selected.length} issues`;
    } else {
      throw new AppError("bad_request", "Choose an action");
    }
    revalidatePath(`/organizations/${access.organization.slug}/issues`, "layout");
    return { message };
  });
}
