import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeCheckIn } from "@/src/api/serializers/monitor";
import { listMonitorCheckIns } from "@/src/services/monitors/monitors";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/monitors/{monitorSlug}/checkins/", {
  /** Newest first; `per_page` (default 100, at most 1000). */
  GET: async (request, params, { runtime, access }) => {
    const perPage = Number(new URL(request.url).searchParams.get("per_page") ?? "100");
    const limit = Number.isInteger(perPage) && perPage > 0 ? perPage : 100;
    const { monitor, checkIns } = await listMonitorCheckIns(runtime.storage, access, params.monitorSlug, limit);
    return json(checkIns.map((checkIn) => serializeCheckIn(checkIn, monitor)));
  },
});
