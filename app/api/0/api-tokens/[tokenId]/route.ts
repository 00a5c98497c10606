import { AppError } from "@/src/errors";
import { apiRoutes } from "@/src/api/route";
import { revokeApiToken } from "@/src/services/accounts/tokens";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/api-tokens/{tokenId}/", {
  /**
   * Revokes one of the caller's tokens at once; another person's token id is "not found". A token may
   * revoke only itself: a leaked narrow token must not be able to revoke its owner's other tokens.
   */
  DELETE: async (_request, { tokenId }, { runtime, principal, actor }) => {
    if (principal.kind === "token" && principal.token.id !== tokenId) throw new AppError("not_found", "token not found");
    await revokeApiToken(runtime.storage, actor, principal.user, tokenId);
    return new Response(null, { status: 204 });
  },
});
