import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeSavedSearch } from "@/src/api/serializers/saved-search";
import { deleteSavedSearch, savedSearchChanges, updateSavedSearch } from "@/src/services/issues/saved-searches";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/searches/{searchId}/", {
  PUT: async (request, params, { runtime, access }) => {
    const changes = await readJsonBody(request, savedSearchChanges);
    return json(serializeSavedSearch(await updateSavedSearch(runtime.storage, access, params.searchId, changes)));
  },
  DELETE: async (_request, params, { runtime, access }) => {
    await deleteSavedSearch(runtime.storage, access, params.searchId);
    return new Response(null, { status: 204 });
  },
});
