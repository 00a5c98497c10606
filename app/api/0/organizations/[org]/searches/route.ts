import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeSavedSearch } from "@/src/api/serializers/saved-search";
import { createSavedSearch, listSavedSearches, newSavedSearchInput } from "@/src/services/issues/saved-searches";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/searches/", {
  GET: async (_request, _params, { runtime, access }) => json((await listSavedSearches(runtime.storage, access)).map(serializeSavedSearch)),
  POST: async (request, _params, { runtime, access }) => {
    const input = await readJsonBody(request, newSavedSearchInput);
    return json(serializeSavedSearch(await createSavedSearch(runtime.storage, access, input)), 201);
  },
});
