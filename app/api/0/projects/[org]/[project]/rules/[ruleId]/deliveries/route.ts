import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeDelivery } from "@/src/api/serializers/alert-rule";
import { deliveryLog } from "@/src/services/alerts/deliveries";
import { getRule } from "@/src/services/alerts/rules";

export const dynamic = "force-dynamic";

/** The rule's delivery log, newest first: sent, pending (with the next attempt) and failed (with the reason). */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/rules/{ruleId}/deliveries/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const rule = await getRule(runtime.storage, project, params.ruleId);
    return json((await deliveryLog(runtime.storage, rule)).map(serializeDelivery));
  },
});
