/**
 * Same-origin checks for state-changing requests made with the session cookie. SameSite=Lax already
 * keeps the cookie off cross-site POSTs; this refuses them outright as well, so a cross-site form can
 * neither act for a signed-in person nor sign them in to another account (login CSRF).
 */
import { getRuntime } from "@/src/runtime";

interface HeaderSource {
  get(name: string): string | null;
}

/** The origins a legitimate page of this server is served from: PUBLIC_URL's and the Host header's. */
function allowedOrigins(headers: HeaderSource): Set<string> {
  const origins = new Set<string>();
  const { publicUrl } = getRuntime();
  if (publicUrl) origins.add(new URL(publicUrl).origin);
  // Behind a proxy that rewrites Host, PUBLIC_URL names the origin browsers use.
  const host = headers.get("host");
  if (host) {
    origins.add(`http://${host}`);
    origins.add(`https://${host}`);
  }
  return origins;
}

/**
 * Browsers send Origin on every POST; a request without one is not from a browser page (a script
 * with its own credentials), which CSRF cannot abuse — unless Fetch Metadata says it is cross-site.
 */
export function isSameOrigin(headers: HeaderSource): boolean {
  const origin = headers.get("origin");
  if (origin === null) {
    const site = headers.get("sec-fetch-site");
    return site === null || site === "same-origin" || site === "none";
  }
  return allowedOrigins(headers).has(origin);
}
