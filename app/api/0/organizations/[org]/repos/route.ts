import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeRepository } from "@/src/api/serializers/release";
import { newRepositoryInput } from "@/src/services/releases/input";
import { addRepository, listRepositories } from "@/src/services/releases/releases";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/organizations/{org}/repos/", {
  /** Repositories named by commits so far, or added here: `set-commits --commit REPO@SHA` checks REPO against them. */
  GET: async (_request, _params, { runtime, access }) => json((await listRepositories(runtime.storage, access)).map(serializeRepository)),
  POST: async (request, _params, { runtime, access }) => {
    const input = await readJsonBody(request, newRepositoryInput);
    const repository = await addRepository(runtime.storage, access, input);
    return json(serializeRepository(repository), 201);
  },
});
