import { assignIssue, commentOnIssue, ignoreOrResolveUntil, markIssueReviewed, setIssueBookmark } from "@/app/organizations/[org]/issues/[issueId]/actions";
import type { IssueWorkflowView, ActivityView } from "@/src/services/issues/issue-triage-view";
import { ActionForm } from "../action-form";
import { SubmitButton } from "../submit-button";
import { buttonClass, RelativeTime } from "../ui";
import { CommentMarkdown } from "./comment-markdown";

/** Issue workflow on the issue page: assignee, bookmark, review, and the activity log with comments. */
export function IssueWorkflowPanel({
  organizationSlug,
  issueId,
  view,
  canWrite,
  now,
}: {
  organizationSlug: string;
  issueId: string;
  view: IssueWorkflowView;
  canWrite: boolean;
  now: number;
}) {
  const { triage } = view;
  const current = triage.assignee ? `${triage.assignee.type}:${triage.assignee.id}` : "";
  return (
    <section className="space-y-4 rounded-lg border border-line p-4" aria-label="Triage" data-testid="issue-workflow">
      <div className="flex flex-wrap items-end gap-3">
        <ActionForm action={assignIssue.bind(null, organizationSlug, issueId)} className="flex items-end gap-2" testId="assign-form">
          <label className="text-sm">
            <span className="block text-xs font-semibold text-subtle uppercase">Assignee</span>
            <select name="assignedTo" defaultValue={current} disabled={!canWrite} className="mt-1 rounded-md border border-line bg-surface px-2 py-1" data-testid="assignee">
              <option value="">Unassigned</option>
              <optgroup label="People">
                {view.people.map((person) => (
                  <option key={person.userId} value={`user:${person.userId}`}>
                    {person.name || person.email}
                  </option>
                ))}
              </optgroup>
              <optgroup label="Teams">
                {view.teams.map((team) => (
                  <option key={team.id} value={`team:${team.id}`}>
                    #{team.slug}
                  </option>
                ))}
              </optgroup>
            </select>
          </label>
          <SubmitButton className={buttonClass.secondary} disabled={!canWrite}>
            Assign
          </SubmitButton>
        </ActionForm>
        <ActionForm action={setIssueBookmark.bind(null, organizationSlug, issueId, !triage.isBookmarked)} testId="bookmark-form">
          <SubmitButton className={buttonClass.secondary} disabled={!canWrite}>
            {triage.isBookmarked ? "Remove bookmark" : "Bookmark"}
          </SubmitButton>
        </ActionForm>
        <ActionForm action={ignoreOrResolveUntil.bind(null, organizationSlug, issueId)} className="flex items-end gap-2" testId="until-form">
          <label className="text-sm">
            <span className="block text-xs font-semibold text-subtle uppercase">Ignore or resolve until</span>
            <select name="until" defaultValue="10-events" disabled={!canWrite} className="mt-1 rounded-md border border-line bg-surface px-2 py-1" data-testid="until">
              <option value="30m">Ignore for 30 minutes</option>
              <option value="24h">Ignore for 24 hours</option>
              <option value="10-events">Ignore until 10 more events</option>
              <option value="100-events-hour">Ignore until 100 events in an hour</option>
              <option value="10-users">Ignore until 10 more users</option>
              <option value="escalating">Archive until escalating</option>
              <option value="next-release">Resolve in the next release</option>
            </select>
          </label>
          <SubmitButton className={buttonClass.secondary} disabled={!canWrite}>
            Apply
          </SubmitButton>
        </ActionForm>
        {triage.reviewed ? (
          <span className="text-sm text-muted" data-testid="reviewed">Reviewed</span>
        ) : (
          <ActionForm action={markIssueReviewed.bind(null, organizationSlug, issueId)} testId="review-form">
            <SubmitButton className={buttonClass.secondary} disabled={!canWrite}>
              Mark reviewed
            </SubmitButton>
          </ActionForm>
        )}
      </div>
      <div>
        <h2 className="text-sm font-semibold">Activity</h2>
        <ol className="mt-2 space-y-2" data-testid="activity">
          {view.activity.map((entry) => (
            <li key={entry.id} className="text-sm">
              <span className="font-medium">{entry.user ? entry.user.name || entry.user.email : "Periscope"}</span>{" "}
              <span className="text-muted">{describe(entry, view)}</span> <RelativeTime ms={entry.dateCreated} now={now} />
              {entry.type === "note" && typeof entry.data.text === "string" ? (
                <div className="mt-1 rounded-md border border-line p-2">
                  <CommentMarkdown text={entry.data.text} />
                </div>
              ) : null}
            </li>
          ))}
        </ol>
        {canWrite ? (
          <ActionForm action={commentOnIssue.bind(null, organizationSlug, issueId)} className="mt-3 space-y-2" testId="comment-form">
            <textarea name="text" rows={3} required maxLength={10_000} placeholder="Add a comment (markdown)" className="w-full rounded-md border border-line bg-surface p-2 text-sm" />
            <SubmitButton className={buttonClass.primary}>Comment</SubmitButton>
          </ActionForm>
        ) : null}
      </div>
    </section>
  );
}

function describe(entry: ActivityView, view: IssueWorkflowView): string {
  const data = entry.data;
  switch (entry.type) {
    case "note":
      return "commented";
    case "assigned": {
      const who =
        data.assigneeType === "team"
          ? `#${view.teams.find((t) => t.id === data.assignee)?.slug ?? String(data.assignee)}`
          : (view.people.find((p) => p.userId === data.assignee)?.name ?? `user ${String(data.assignee)}`);
      return `assigned this to ${who}`;
    }
    case "unassigned":
      return "unassigned this";
    case "set_resolved":
      return typeof data.inRelease === "string" ? `resolved this in ${data.inRelease}` : data.inNextRelease ? "resolved this in the next release" : "resolved this";
    case "set_unresolved":
      return typeof data.reason === "string" ? `unresolved this (${data.reason} passed)` : "unresolved this";
    case "set_ignored":
      return "ignored this" + (Object.keys(data).length > 0 ? ` (${Object.entries(data).map(([k, v]) => `${k} ${String(v)}`).join(", ")})` : "");
    case "set_regression":
      return typeof data.version === "string" ? `marked this as a regression in ${data.version}` : "marked this as a regression";
    case "set_escalating":
      return "marked this as escalating";
    case "mark_reviewed":
      return "marked this reviewed";
    default:
      return entry.type;
  }
}
