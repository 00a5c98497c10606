import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeMetricRule } from "@/src/api/serializers/metric-alert-rule";
import { hasScope } from "@/src/services/accounts/access";
import { metricFieldsOf, metricRuleInput } from "@/src/services/alerts/metric-input";
import { createMetricRule, listMetricRules, projectForInput } from "@/src/services/alerts/metric-rules";

export const dynamic = "force-dynamic";

/** Sentry's OrganizationAlertRuleIndexEndpoint: the organisation's metric alert rules. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/alert-rules/", {
  GET: async (_request, _params, { runtime, access }) => {
    const withSecret = hasScope(access, ["org:write", "alerts:write"]);
    return json((await listMetricRules(runtime.storage, access)).map(({ rule, project }) => serializeMetricRule(rule, project, { withSecret })));
  },
  POST: async (request, _params, { runtime, access, actor }) => {
    const input = await readJsonBody(request, metricRuleInput);
    const project = await projectForInput(runtime.storage, access, input.projects[0]!);
    const rule = await createMetricRule(runtime.storage, actor, access, project, metricFieldsOf(input));
    runtime.kickAlerts();
    return json(serializeMetricRule(rule, project, { withSecret: true }), 201);
  },
});
