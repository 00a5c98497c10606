import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeDelivery } from "@/src/api/serializers/alert-rule";
import { getMetricRule, metricDeliveryLog } from "@/src/services/alerts/metric-rules";

export const dynamic = "force-dynamic";

/** A metric rule's delivery log (Periscope's own route), newest first. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/alert-rules/{ruleId}/deliveries/", {
  GET: async (_request, params, { runtime, access }) => {
    const { rule } = await getMetricRule(runtime.storage, access, params.ruleId);
    return json((await metricDeliveryLog(runtime.storage, rule)).map(serializeDelivery));
  },
});
