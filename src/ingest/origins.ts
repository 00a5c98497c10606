/**
 * The project's origin allow-list (Sentry's `allowedDomains`, option `sentry:origins`), checked on
 * browser SDK traffic: requests that carry `Origin` or, failing that, `Referer`. Requests with
 * neither (server SDKs) are not browser traffic and pass, as in Relay.
 *
 * Patterns, as Sentry reads them: `*` (anything), `example.com` (that host), `*.example.com` (the
 * host and its subdomains), optionally with a scheme (`https://example.com`) or a port
 * (`example.com:8080`). An empty list refuses every browser request.
 */
import type { IncomingHttpHeaders } from "node:http";

interface Pattern {
  scheme: string | null;
  host: string;
  wildcard: boolean;
  port: string | null;
}

const compiled = new Map<string, Pattern | null>();

function compile(text: string): Pattern | null {
  const cached = compiled.get(text);
  if (cached !== undefined) return cached;
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?\/?$/i.exec(text.trim());
  const pattern = match ? { scheme: match[1]?.toLowerCase() ?? null, wildcard: match[2] !== undefined, host: (match[3] ?? "").toLowerCase(), port: match[4] ?? null } : null;
  if (compiled.size > 10_000) compiled.clear();
  compiled.set(text, pattern);
  return pattern;
}

/** The browser's origin as `Origin` or `Referer` gives it; undefined when the request has neither. */
export function requestOrigin(headers: IncomingHttpHeaders): string | undefined {
  const origin = headers.origin;
  if (typeof origin === "string" && origin !== "") return origin;
  const referer = headers.referer;
  return typeof referer === "string" && referer !== "" ? referer : undefined;
}

export function isAllowedOrigin(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined || allowed.includes("*")) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed frame or a file:// page) and garbage match no host pattern.
  }
  const host = url.hostname.toLowerCase();
  const scheme = url.protocol.slice(0, -1);
  for (const text of allowed) {
    const pattern = compile(text);
    if (!pattern) continue;
    if (pattern.scheme !== null && pattern.scheme !== scheme) continue;
    if (pattern.port !== null && pattern.port !== "*" && pattern.port !== url.port) continue;
    if (host === pattern.host || (pattern.wildcard && host.endsWith(`.${pattern.host}`))) return true;
  }
  return false;
}
