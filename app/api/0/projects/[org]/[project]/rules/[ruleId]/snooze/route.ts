import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeAlertRule } from "@/src/api/serializers/alert-rule";
import { setRuleMuted } from "@/src/services/alerts/rules";

export const dynamic = "force-dynamic";

/** Sentry's rule snooze: POST mutes the rule (it fires for nobody), DELETE unmutes it. */
export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/rules/{ruleId}/snooze/", {
  POST: async (_request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const rule = await setRuleMuted(runtime.storage, actor, access.organization, project, params.ruleId, true);
    return json(serializeAlertRule(rule, project, { withSecret: true }), 201);
  },
  DELETE: async (_request, params, { runtime, access, actor }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const rule = await setRuleMuted(runtime.storage, actor, access.organization, project, params.ruleId, false);
    return json(serializeAlertRule(rule, project, { withSecret: true }));
  },
});
