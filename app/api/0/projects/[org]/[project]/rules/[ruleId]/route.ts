import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeAlertRule } from "@/src/api/serializers/alert-rule";
import { hasScope } from "@/src/services/accounts/access";
import { ruleFieldsOf, ruleInput } from "@/src/services/alerts/rule-input";
import { deleteRule, getRule, updateRule } from "@/src/services/alerts/rules";

export const dynamic = "force-dynamic";

/** Sentry's ProjectRuleDetailsEndpoint. PUT replaces the whole rule, as Sentry's does. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/rules/{ruleId}/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const rule = await getRule(runtime.storage, project, params.ruleId);
    return json(serializeAlertRule(rule, project, { withSecret: hasScope(access, "project:write") }));
  },
  PUT: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const fields = ruleFieldsOf(await readJsonBody(request, ruleInput));
    const rule = await updateRule(runtime.storage, actor, access.organization, project, params.ruleId, fields);
    return json(serializeAlertRule(rule, project, { withSecret: true }));
  },
  DELETE: async (_request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    await deleteRule(runtime.storage, actor, access.organization, project, params.ruleId);
    return new Response(null, { status: 202 });
  },
});
