import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { queueTestNotification } from "@/src/services/alerts/deliveries";
import { getRule } from "@/src/services/alerts/rules";

export const dynamic = "force-dynamic";

/** "Send test notification": queues one test message per recipient of the rule's actions (see the delivery log). */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/rules/{ruleId}/test/", {
  POST: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const rule = await getRule(runtime.storage, project, params.ruleId);
    const queued = await queueTestNotification(runtime.storage, runtime.publicUrl, access.organization, project, rule);
    runtime.kickAlerts();
    return json({ queued }, 202);
  },
});
