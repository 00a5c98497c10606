import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeAlertRule } from "@/src/api/serializers/alert-rule";
import { hasScope } from "@/src/services/accounts/access";
import { ruleFieldsOf, ruleInput } from "@/src/services/alerts/rule-input";
import { createRule, listRules } from "@/src/services/alerts/rules";

export const dynamic = "force-dynamic";

/** Sentry's ProjectRulesEndpoint: a project's issue alert rules. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/rules/", {
  GET: async (_request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const withSecret = hasScope(access, "project:write");
    return json((await listRules(runtime.storage, project)).map((rule) => serializeAlertRule(rule, project, { withSecret })));
  },
  POST: async (request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const fields = ruleFieldsOf(await readJsonBody(request, ruleInput));
    const rule = await createRule(runtime.storage, actor, access.organization, project, fields);
    return json(serializeAlertRule(rule, project, { withSecret: true }), 201);
  },
});
