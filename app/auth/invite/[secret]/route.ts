import { appErrorOf } from "@/components/app-error";
import { errorAnswer, jsonAnswer, readAuthRequest, refuseCrossOrigin, requestPrincipal, retryAfterOf, seeOther, sessionCookieHeaders } from "@/app/_lib/auth-route";
import { problemOf } from "@/app/_lib/form-problems";
import { getRuntime } from "@/src/runtime";
import { login, startSession, type StartedSession } from "@/src/services/accounts/login";
import { acceptInvite, openInvite, signUpWithInvite } from "@/src/services/accounts/members";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ secret: string }> };

/**
 * Joins through an invite link. mode=join: the signed-in person joins. mode=signup: a new account is
 * created and joins. mode=login: an existing account signs in, then joins.
 */
export async function POST(request: Request, { params }: Context): Promise<Response> {
  const refused = refuseCrossOrigin(request);
  if (refused) return refused;
  const { secret } = await params;
  const body = await readAuthRequest(request);
  if (!body) return jsonAnswer(400, { detail: "Send the form fields as a form or as JSON." });
  const { storage, config } = getRuntime();
  const now = Date.now();
  const { fields } = body;
  let started: StartedSession | null = null;
  try {
    const { organization } = await openInvite(storage, secret, now);
    if (fields.mode === "signup") {
      if (!body.json && fields.password !== fields.confirm) return seeOther(`/invite/${secret}?error=mismatch`);
      const { user } = await signUpWithInvite(storage, secret, { email: fields.email ?? "", name: fields.name ?? "", password: fields.password ?? "" }, body.ipAddress, now);
      started = await startSession(storage, user, now, config.auth.sessionTtlMs);
    } else if (fields.mode === "login") {
      started = await login(storage, { email: fields.email ?? "", password: fields.password ?? "", ipAddress: body.ipAddress, now, sessionTtlMs: config.auth.sessionTtlMs });
      await acceptInvite(storage, secret, started.user, body.ipAddress, now);
    } else {
      const principal = await requestPrincipal(request);
      if (!principal) return body.json ? jsonAnswer(401, { detail: "Sign in first, or sign up with this invite." }) : seeOther(`/invite/${secret}`);
      await acceptInvite(storage, secret, principal.user, body.ipAddress, now);
    }
    const cookies = started ? sessionCookieHeaders(started) : [];
    if (body.json) return jsonAnswer(200, { organization: organization.slug }, cookies);
    return seeOther(`/organizations/${organization.slug}/issues`, cookies);
  } catch (error) {
    if (body.json) return errorAnswer(error);
    const appError = appErrorOf(error);
    if (!appError) throw error;
    // Signed in but the join failed (say, already a member): keep the session, show why on the page.
    const cookies = started ? sessionCookieHeaders(started) : [];
    const query = new URLSearchParams({ mode: fields.mode ?? "join" });
    if (appError.code === "rate_limited") {
      query.set("error", "throttled");
      query.set("wait", String(retryAfterOf(error) ?? 60));
    } else {
      query.set("error", problemOf(appError.code, appError.message));
    }
    return seeOther(`/invite/${secret}?${query}`, cookies);
  }
}
