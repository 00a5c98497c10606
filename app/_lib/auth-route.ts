/**
 * Shared by the sign-in, setup, invite and logout endpoints. They are plain route handlers so they
 * work without JavaScript (form posts answered with 303 redirects) and from scripts and tests
 * (JSON in, JSON out: 200, 401, 403, 409, 429 with {detail}).
 */
import { appErrorOf } from "@/components/app-error";
import { clearedSessionCookies, CLIENT_IP_HEADER, cookieValue, SESSION_COOKIE, secureCookies, sessionCookies } from "@/src/auth/cookies";
import { readBodyText } from "@/src/api/body";
import { httpStatusOf } from "@/src/errors";
import { getRuntime } from "@/src/runtime";
import type { StartedSession } from "@/src/services/accounts/login";
import { authenticateSession } from "@/src/services/accounts/authenticate";
import type { SessionPrincipal } from "./session";
import { isSameOrigin } from "./origin";

export interface AuthRequest {
  json: boolean;
  fields: Record<string, string>;
  ipAddress: string | null;
}

const MAX_AUTH_BODY_BYTES = 64 * 1024;

/** Reads a form or JSON body; null when it is neither, malformed, or too large to be a login form. */
export async function readAuthRequest(request: Request): Promise<AuthRequest | null> {
  const type = request.headers.get("content-type") ?? "";
  const ipAddress = request.headers.get(CLIENT_IP_HEADER) || null;
  let text: string;
  try {
    text = await readBodyText(request, MAX_AUTH_BODY_BYTES);
  } catch {
    return null;
  }
  // Null prototype: field names are the client's (`__proto__`, `constructor`).
  const fields = Object.create(null) as Record<string, string>;
  if (type.startsWith("application/json")) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return null;
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
    for (const [key, value] of Object.entries(body)) if (typeof value === "string") fields[key] = value;
    return { json: true, fields, ipAddress };
  }
  if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      // Parsed from the bounded text: the original stream is consumed.
      form = await new Response(text, { headers: { "content-type": type } }).formData();
    } catch {
      return null;
    }
    for (const [key, value] of form.entries()) if (typeof value === "string") fields[key] = value;
    return { json: false, fields, ipAddress };
  }
  return null;
}

export function jsonAnswer(status: number, body: unknown, extraHeaders: [string, string][] = []): Response {
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store" });
  for (const [name, value] of extraHeaders) headers.append(name, value);
  return new Response(JSON.stringify(body), { status, headers });
}

export function seeOther(location: string, extraHeaders: [string, string][] = []): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const [name, value] of extraHeaders) headers.append(name, value);
  return new Response(null, { status: 303, headers });
}

export function sessionCookieHeaders(started: StartedSession): [string, string][] {
  const { publicUrl, config } = getRuntime();
  const maxAge = Math.floor(config.auth.sessionTtlMs / 1000);
  return sessionCookies(started.sessionToken, started.session.csrfToken, { secure: secureCookies(publicUrl), maxAge }).map((value) => [
    "Set-Cookie",
    value,
  ]);
}

export function clearedCookieHeaders(): [string, string][] {
  return clearedSessionCookies(secureCookies(getRuntime().publicUrl)).map((value) => ["Set-Cookie", value]);
}

/** Cross-origin posts are refused before anything else is looked at. */
export function refuseCrossOrigin(request: Request): Response | null {
  if (isSameOrigin(request.headers)) return null;
  return jsonAnswer(403, { detail: "Cross-origin request refused: this form must be sent from a Periscope page." });
}

export async function requestPrincipal(request: Request): Promise<SessionPrincipal | null> {
  const token = cookieValue(request.headers.get("cookie"), SESSION_COOKIE);
  if (!token) return null;
  const principal = await authenticateSession(getRuntime().storage, token, Date.now());
  return principal?.kind === "session" ? principal : null;
}

/** An AppError as the JSON answer (with Retry-After when throttled); anything else propagates. */
export function errorAnswer(error: unknown): Response {
  const appError = appErrorOf(error);
  if (!appError) throw error;
  const retryAfter = retryAfterOf(error);
  return jsonAnswer(
    httpStatusOf(appError.code),
    { detail: appError.message, ...(retryAfter !== null ? { retryAfter } : {}) },
    retryAfter !== null ? [["Retry-After", String(retryAfter)]] : [],
  );
}

export function retryAfterOf(error: unknown): number | null {
  return error instanceof Error && "retryAfterSeconds" in error && typeof error.retryAfterSeconds === "number" ? error.retryAfterSeconds : null;
}
