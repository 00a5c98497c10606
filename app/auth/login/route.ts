import { appErrorOf } from "@/components/app-error";
import { clearedCookieHeaders, errorAnswer, jsonAnswer, readAuthRequest, refuseCrossOrigin, retryAfterOf, seeOther, sessionCookieHeaders } from "@/app/_lib/auth-route";
import { safeNextPath } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { login } from "@/src/services/accounts/login";
import { organizationsOf } from "@/src/services/accounts/access";

export const dynamic = "force-dynamic";

/** Sign in with email and password: a form post (303) or JSON ({email, password} → 200/401/429). */
export async function POST(request: Request): Promise<Response> {
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const body = await readAuthRequest(request);
  if (!body) return jsonAnswer(400, { detail: "Send the email and password as a form or as JSON." });
  const { storage, config } = getRuntime();
  const next = safeNextPath(body.fields.next);
  try {
    const started = await login(storage, {
      email: body.fields.email ?? "",
      password: body.fields.password ?? "",
      ipAddress: body.ipAddress,
      now: Date.now(),
      sessionTtlMs: config.auth.sessionTtlMs,
    });
    const cookies = sessionCookieHeaders(started);
    if (body.json) return jsonAnswer(200, { user: { id: started.user.id, email: started.user.email, name: started.user.name } }, cookies);
    let target = next;
    if (!target) {
      const [first] = await organizationsOf(storage, started.user);
      target = first ? `/organizations/${first.slug}` : "/";
    }
    return seeOther(target, cookies);
  } catch (error) {
    if (body.json) return errorAnswer(error);
    const appError = appErrorOf(error);
    if (!appError) throw error;
    const query = new URLSearchParams();
    if (appError.code === "rate_limited") {
      query.set("error", "throttled");
      query.set("wait", String(retryAfterOf(error) ?? 60));
    } else {
      query.set("error", "credentials");
    }
    if (next) query.set("next", next);
    // A failed attempt also ends whatever session this browser had, so the page shown is unambiguous.
    return seeOther(`/login?${query}`, clearedCookieHeaders());
  }
}
