import { clearedCookieHeaders, jsonAnswer, readAuthRequest, refuseCrossOrigin, requestPrincipal, seeOther } from "@/app/_lib/auth-route";
import { getRuntime } from "@/src/runtime";
import { logout, logoutEverywhere } from "@/src/services/accounts/login";

export const dynamic = "force-dynamic";

/** Ends this session (or, with everywhere=1, every session of the person) and clears the cookies. */
export async function POST(request: Request): Promise<Response> {
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const body = await readAuthRequest(request);
  const principal = await requestPrincipal(request);
  const { storage } = getRuntime();
  let ended = 0;
  if (principal) {
    if (body?.fields.everywhere === "1") ended = await logoutEverywhere(storage, principal.user);
    else {
      await logout(storage, principal.session);
      ended = 1;
    }
  }
  if (body?.json) return jsonAnswer(200, { sessionsEnded: ended }, clearedCookieHeaders());
  return seeOther(body?.fields.everywhere === "1" ? "/login?loggedOut=everywhere" : "/login?loggedOut=1", clearedCookieHeaders());
}
