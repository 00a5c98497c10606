import { bulkIssueAction } from "@/app/organizations/[org]/issues/bulk-actions";
import type { IssueWorkflowView } from "@/src/services/issues/issue-triage-view";
import { ActionForm } from "../action-form";
import { SubmitButton } from "../submit-button";
import { buttonClass } from "../ui";
import { SelectAllIssues } from "./select-all";

export const BULK_FORM_ID = "issue-bulk";

/**
 * Bulk actions above the issue list (issue workflow): rows' checkboxes belong to this form through
 * their `form` attribute; "all matching" applies the action to every issue the filters match.
 */
export function IssueBulkActions({
  organizationSlug,
  projectIds,
  filters,
  choices,
}: {
  organizationSlug: string;
  /** The projects the list shows: "all matching" and the checked ids are taken from these only. */
  projectIds: string[];
  filters: Record<string, string>;
  choices: Pick<IssueWorkflowView, "people" | "teams">;
}) {
  return (
    <ActionForm action={bulkIssueAction.bind(null, organizationSlug, projectIds, filters)} id={BULK_FORM_ID} testId="bulk-actions" className="flex flex-wrap items-center gap-3 text-sm">
      <SelectAllIssues form={BULK_FORM_ID} />
      <label className="flex items-center gap-1.5">
        <input type="checkbox" name="scope" value="all" data-testid="select-all-matching" />
        All issues matching the filters
      </label>
      <select name="action" defaultValue="resolve" className="rounded-md border border-line bg-surface px-2 py-1" data-testid="bulk-action" aria-label="Bulk action">
        <option value="resolve">Resolve</option>
        <option value="unresolve">Unresolve</option>
        <option value="ignore">Ignore</option>
        <option value="review">Mark reviewed</option>
        <option value="bookmark">Bookmark</option>
        <option value="assign">Assign to…</option>
        <option value="merge">Merge</option>
        <option value="delete">Delete</option>
      </select>
      <select name="assignedTo" defaultValue="" className="rounded-md border border-line bg-surface px-2 py-1" aria-label="Assign to" data-testid="bulk-assignee">
        <option value="">(assign: nobody)</option>
        {choices.people.map((person) => (
          <option key={person.userId} value={`user:${person.userId}`}>
            {person.name || person.email}
          </option>
        ))}
        {choices.teams.map((team) => (
          <option key={team.id} value={`team:${team.id}`}>
            #{team.slug}
          </option>
        ))}
      </select>
      <SubmitButton className={buttonClass.secondary}>Apply</SubmitButton>
    </ActionForm>
  );
}
