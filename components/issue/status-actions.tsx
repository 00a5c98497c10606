import { setIssueStatus } from "@/app/organizations/[org]/issues/[issueId]/actions";
import type { Issue, IssueStatus } from "@/src/storage/types";
import { SubmitButton } from "../submit-button";
import { buttonClass } from "../ui";

/** Resolve / Unresolve / Ignore as server-action forms (they work before hydration and without JS). */
export function StatusActions({ organizationSlug, issue }: { organizationSlug: string; issue: Issue }) {
  const actions: { status: IssueStatus; label: string; primary: boolean }[] =
    issue.status === "unresolved"
      ? [
          { status: "resolved", label: "Resolve", primary: true },
          { status: "ignored", label: "Ignore", primary: false },
        ]
      : issue.status === "resolved"
        ? [{ status: "unresolved", label: "Unresolve", primary: false }]
        : [
            { status: "unresolved", label: "Stop ignoring", primary: false },
            { status: "resolved", label: "Resolve", primary: true },
          ];
  return (
    <div className="flex flex-wrap gap-2" data-testid="status-actions">
      {actions.map((action) => (
        <form key={action.status} action={setIssueStatus.bind(null, organizationSlug, issue.id, action.status)}>
          <SubmitButton className={action.primary ? buttonClass.primary : buttonClass.secondary}>
            {action.status === "resolved" ? <CheckIcon /> : null}
            {action.label}
          </SubmitButton>
        </form>
      ))}
    </div>
  );
}

function CheckIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden fill="none" stroke="currentColor" strokeWidth="2">
      <path d="m3 8.5 3 3 7-7" />
    </svg>
  );
}
