import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { AppError } from "@/src/errors";
import { userRoute } from "@/src/api/route";
import { revokeApiToken } from "@/src/services/accounts/tokens";

export const dynamic = "force-dynamic";

/**
 * Revokes one of the caller's tokens at once; another person's token id is "not found". A token may
 * revoke only itself: a leaked narrow token must not be able to revoke its owner's other tokens.
 */
export const DELETE = userRoute("DELETE /api/0/api-tokens/{tokenId}/", async (_request, { tokenId }, { runtime, principal, actor }) => {
  if (principal.kind === "token" && principal.token.id !== tokenId) throw new AppError("not_found", "token not found");
  await revokeApiToken(runtime.storage, actor, principal.user, tokenId);
  return new Response(null, { status: 204 });
});

export const GET = methodNotAllowed;
export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
