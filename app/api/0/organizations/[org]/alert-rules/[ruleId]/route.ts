import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeMetricRule } from "@/src/api/serializers/metric-alert-rule";
import { hasScope } from "@/src/services/accounts/access";
import { metricFieldsOf, metricRuleInput } from "@/src/services/alerts/metric-input";
import { deleteMetricRule, getMetricRule, projectForInput, updateMetricRule } from "@/src/services/alerts/metric-rules";

export const dynamic = "force-dynamic";

/** Sentry's OrganizationAlertRuleDetailsEndpoint. PUT replaces the whole rule, as Sentry's does. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/alert-rules/{ruleId}/", {
  GET: async (_request, params, { runtime, access }) => {
    const { rule, project } = await getMetricRule(runtime.storage, access, params.ruleId);
    return json(serializeMetricRule(rule, project, { withSecret: hasScope(access, ["org:write", "alerts:write"]) }));
  },
  PUT: async (request, params, { runtime, access, actor }) => {
    await getMetricRule(runtime.storage, access, params.ruleId);
    const input = await readJsonBody(request, metricRuleInput);
    const project = await projectForInput(runtime.storage, access, input.projects[0]!);
    const rule = await updateMetricRule(runtime.storage, actor, access, params.ruleId, project, metricFieldsOf(input));
    runtime.kickAlerts();
    return json(serializeMetricRule(rule, project, { withSecret: true }));
  },
  DELETE: async (_request, params, { runtime, access, actor }) => {
    await deleteMetricRule(runtime.storage, actor, access, params.ruleId);
    return new Response(null, { status: 202 });
  },
});
