/**
 * Who is calling the API: a Bearer API token or the browser's session cookie. A request that
 * presents a Bearer header is judged by it alone (a bad token is never rescued by a cookie), so
 * scripts get a clear "Invalid token" rather than acting as whoever last signed in on that machine.
 */
import { CLIENT_IP_HEADER, CSRF_HEADER, SESSION_COOKIE, cookieValue } from "../auth/cookies";
import { sameSecret } from "../auth/secrets";
import { AppError } from "../errors";
import type { Principal } from "../services/accounts/access";
import { authenticateApiToken, authenticateSession } from "../services/accounts/authenticate";
import type { Runtime } from "../runtime";

/** Django REST framework's wording, which Sentry answers with and its clients recognise. */
export const NOT_AUTHENTICATED = "Authentication credentials were not provided.";
export const INVALID_TOKEN = "Invalid token";
export const INVALID_SESSION = "Your session has expired or is not valid; sign in again.";
export const CSRF_FAILED = "CSRF Failed: the X-CSRFToken header is missing or does not match this session.";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function bearerOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // Any other Authorization scheme (Basic, DSN auth) is not an API credential here.
  if (!match) throw new AppError("unauthorized", INVALID_TOKEN);
  return match[1] ?? "";
}

/**
 * The principal, or an AppError: 401 without credentials or with bad ones, 403 for a cookie-borne
 * state-changing request without the session's CSRF token. Cookies ride along on cross-site
 * requests; the CSRF token, readable only by our own pages, proves the request came from one of them.
 */
export async function authenticateRequest(request: Request, storage: Runtime["storage"], now: number): Promise<Principal> {
  const bearer = bearerOf(request);
  if (bearer !== null) {
    const principal = await authenticateApiToken(storage, bearer, now);
    if (!principal) throw new AppError("unauthorized", INVALID_TOKEN);
    return principal;
  }
  const sessionToken = cookieValue(request.headers.get("cookie"), SESSION_COOKIE);
  if (!sessionToken) throw new AppError("unauthorized", NOT_AUTHENTICATED);
  const principal = await authenticateSession(storage, sessionToken, now);
  if (!principal || principal.kind !== "session") throw new AppError("unauthorized", INVALID_SESSION);
  if (!SAFE_METHODS.has(request.method.toUpperCase())) {
    const sent = request.headers.get(CSRF_HEADER) ?? "";
    if (!sameSecret(sent, principal.session.csrfToken)) throw new AppError("forbidden", CSRF_FAILED);
  }
  return principal;
}

/** Set by server.ts on every request it hands to Next; null only outside server.ts. */
export function clientIpOfRequest(request: Request): string | null {
  return request.headers.get(CLIENT_IP_HEADER);
}
