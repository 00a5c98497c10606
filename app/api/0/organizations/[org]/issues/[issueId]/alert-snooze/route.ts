import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { visibleIssue } from "@/src/api/routes/issue-details";
import { isoDate } from "@/src/api/serializers/common";
import { alertsSnoozedUntil, snoozeInput, snoozeIssueAlerts, unsnoozeIssueAlerts } from "@/src/services/alerts/deliveries";

export const dynamic = "force-dynamic";

const answer = (until: number | null) => json({ snoozedUntil: until !== null && until > Date.now() ? isoDate(until) : null });

/** Snoozes every alert rule for one issue for `minutes` (POST), or lifts it (DELETE). */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/issues/{issueId}/alert-snooze/", {
  GET: async (_request, params, context) => {
    const { issue } = await visibleIssue(context, params.issueId);
    return answer(await alertsSnoozedUntil(context.runtime.storage, issue));
  },
  POST: async (request, params, context) => {
    const { issue } = await visibleIssue(context, params.issueId);
    const { minutes } = await readJsonBody(request, snoozeInput);
    return answer(await snoozeIssueAlerts(context.runtime.storage, context.actor, context.access.organization, issue, minutes));
  },
  DELETE: async (_request, params, context) => {
    const { issue } = await visibleIssue(context, params.issueId);
    await unsnoozeIssueAlerts(context.runtime.storage, issue);
    return answer(null);
  },
});
