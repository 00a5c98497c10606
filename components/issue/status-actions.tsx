import { setIssueStatus } from "@/app/organizations/[org]/issues/[issueId]/actions";
import type { Issue, IssueStatus } from "@/src/model";
import { ActionForm } from "../action-form";
import { SubmitButton } from "../submit-button";
import { buttonClass } from "../ui";

/**
 * Resolve / Unresolve / Ignore as server-action forms (they work before hydration and without JS).
 * Without event:write the buttons are disabled with the reason; the action refuses regardless.
 */
export function StatusActions({ organizationSlug, issue, canWrite }: { organizationSlug: string; issue: Issue; canWrite: boolean }) {
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
    <div className="flex max-w-sm flex-col items-start gap-1 md:items-end" data-testid="status-actions">
      <div className="flex flex-wrap gap-2">
        {actions.map((action) => (
          <ActionForm key={action.status} action={setIssueStatus.bind(null, organizationSlug, issue.id, action.status)} className="flex flex-col items-end">
            <SubmitButton className={action.primary ? buttonClass.primary : buttonClass.secondary} disabled={!canWrite}>
              {action.status === "resolved" ? <CheckIcon /> : null}
              {action.label}
            </SubmitButton>
          </ActionForm>
        ))}
      </div>
      {canWrite ? null : (
        <p className="text-xs text-subtle" data-testid="read-only-note">
          Your role can view issues but not change them.
        </p>
      )}
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
