import { methodNotAllowed } from "@/src/api/method-not-allowed";
import { userRoute } from "@/src/api/route";
import { revokeApiToken } from "@/src/services/accounts/tokens";

export const dynamic = "force-dynamic";

/** Revokes one of the caller's tokens at once; another person's token id is "not found". */
export const DELETE = userRoute("DELETE /api/0/api-tokens/{tokenId}/", async (_request, { tokenId }, { runtime, principal, actor }) => {
  await revokeApiToken(runtime.storage, actor, principal.user, tokenId);
  return new Response(null, { status: 204 });
});

export const GET = methodNotAllowed;
export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
