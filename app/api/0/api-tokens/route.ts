import { readJsonBody } from "@/src/api/body";
import { json } from "@/src/api/handle";
import { apiRoutes } from "@/src/api/route";
import { serializeApiToken } from "@/src/api/serializers/accounts";
import { createApiToken, listApiTokens, newTokenInput } from "@/src/services/accounts/tokens";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/api-tokens/", {
  /**
   * The caller's own tokens, newest first; the secret itself is never listed. Called with a token, it
   * lists only that token: a token does not reveal its owner's other tokens.
   */
  GET: async (_request, _params, { runtime, principal }) => {
    const all = await listApiTokens(runtime.storage, principal.user);
    const tokens = principal.kind === "token" ? all.filter((token) => token.id === principal.token.id) : all;
    return json(tokens.sort((a, b) => b.dateCreated - a.dateCreated || Number(b.id) - Number(a.id)).map(serializeApiToken));
  },
  /** Answers the token once, in `token`; only its digest is kept. */
  POST: async (request, _params, { runtime, principal, actor }) => {
    const input = await readJsonBody(request, newTokenInput);
    const { token, apiToken } = await createApiToken(runtime.storage, actor, principal.user, input);
    return json({ ...serializeApiToken(apiToken), token }, 201);
  },
});
