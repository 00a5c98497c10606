import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { projectInPath } from "@/src/api/requested-projects";
import { apiRoutes } from "@/src/api/route";
import { serializeFeedback } from "@/src/api/serializers/feedback";
import { listFeedback, postUserReport, userReportInput } from "@/src/services/feedback/feedback";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/projects/{org}/{project}/user-feedback/", {
  /** Newest first; `per_page` (default 100). */
  GET: async (request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const perPage = Number(new URL(request.url).searchParams.get("per_page") ?? "100");
    const list = await listFeedback(runtime.storage, [project], Number.isInteger(perPage) && perPage > 0 ? perPage : 100);
    return json(list.map(({ feedback, issue }) => serializeFeedback(feedback, issue)));
  },
  /** Sentry's legacy user report: `{event_id, name, email, comments}`. */
  POST: async (request, params, { runtime, access }) => {
    const project = await projectInPath(runtime.storage, access, params.project);
    const input = await readJsonBody(request, userReportInput);
    const { feedback, issue } = await postUserReport(runtime.storage, access, project, input);
    return json(serializeFeedback(feedback, issue));
  },
});
