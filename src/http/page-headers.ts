/**
 * Headers for every request handed to Next (pages, route handlers, the REST API), set in server.ts
 * before Next sees the request; the ingest door answers by itself and never serves HTML.
 *
 * Scripts: a fresh nonce per request instead of 'unsafe-inline'. Next reads the nonce from the
 * request's Content-Security-Policy header and puts it on its own inline and bundle scripts (every
 * page is rendered per request: the root layout reads the theme cookie). An injected <script> has
 * no nonce and does not run.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

export interface PageHeaderOptions {
  dev: boolean;
  /** PUBLIC_URL is https: browsers are told to use https only (HSTS). */
  https: boolean;
}

/** One year, the usual HSTS lifetime; subdomains are not ours to decide. */
const HSTS = "max-age=31536000";

export function contentSecurityPolicy(nonce: string, dev: boolean): string {
  return [
    "default-src 'self'",
    // Development only: React's dev build evaluates code, and live reload talks over a websocket.
    `script-src 'self' 'nonce-${nonce}'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Sets the headers, or answers 400 itself and returns false when the path cannot be decoded
 * (`/organizations/%ED%A0%80/issues`: Next's parameter decoding would throw a 500).
 */
export function applyPageHeaders(req: IncomingMessage, res: ServerResponse, options: PageHeaderOptions): boolean {
  const url = req.url ?? "/";
  const pathname = url.split("?", 1)[0] ?? "/";
  if (!decodable(pathname)) {
    const body = "Bad request: the URL path has malformed percent-encoding (not UTF-8)\n";
    res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" }).end(body);
    return false;
  }
  const csp = contentSecurityPolicy(randomBytes(16).toString("base64"), options.dev);
  req.headers["content-security-policy"] = csp;
  res.setHeader("Content-Security-Policy", csp);
  if (options.https) res.setHeader("Strict-Transport-Security", HSTS);
  // API answers carry organisation data and tokens: no cache (browser or shared) may keep them.
  if (pathname === "/api/0" || pathname.startsWith("/api/0/")) res.setHeader("Cache-Control", "no-store");
  return true;
}

function decodable(pathname: string): boolean {
  if (!pathname.includes("%")) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}
