/**
 * The browser's credentials. The session cookie is HttpOnly (scripts never see it), SameSite=Lax
 * (not sent on cross-site POSTs) and Secure when the public URL is https. The CSRF cookie is
 * readable by the page's scripts, which echo it in the X-CSRFToken header on state-changing API
 * calls — a cross-site page cannot read it, so it cannot forge that header.
 */
export const SESSION_COOKIE = "periscope_session";
const CSRF_COOKIE = "periscope_csrf";
export const CSRF_HEADER = "x-csrftoken";
/** Set by server.ts on every request handed to Next (see src/ingest/client-ip.ts). */
export { CLIENT_IP_HEADER } from "../ingest/client-ip";

export interface CookieOptions {
  secure: boolean;
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
}

function cookie(name: string, value: string, httpOnly: boolean, options: CookieOptions): string {
  const parts = [`${name}=${value}`, "Path=/", `Max-Age=${options.maxAge}`, "SameSite=Lax"];
  if (httpOnly) parts.push("HttpOnly");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/** Set-Cookie values that start a browser session. */
export function sessionCookies(sessionToken: string, csrfToken: string, options: CookieOptions): string[] {
  return [cookie(SESSION_COOKIE, sessionToken, true, options), cookie(CSRF_COOKIE, csrfToken, false, options)];
}

/** Set-Cookie values that end it. */
export function clearedSessionCookies(secure: boolean): string[] {
  return sessionCookies("", "", { secure, maxAge: 0 });
}

/** Cookies are marked Secure when Periscope is reached over https (PUBLIC_URL). */
export function secureCookies(publicUrl: string): boolean {
  return publicUrl.startsWith("https://");
}

/** One cookie's value from a Cookie header. */
export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}
