import type { ServerResponse } from "node:http";

/**
 * As Relay serves them (sentry-protocol.md §3.3). Without the expose list browsers hide
 * X-Sentry-Rate-Limits and Retry-After from the SDK and its rate limiting silently stops working.
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST",
  "Access-Control-Allow-Headers":
    "x-sentry-auth, x-requested-with, x-forwarded-for, origin, referer, accept, content-type, authentication, authorization, content-encoding, transfer-encoding",
  "Access-Control-Expose-Headers": "x-sentry-error, x-sentry-rate-limits, retry-after",
  "Access-Control-Max-Age": "3600",
};

export function setCorsHeaders(res: ServerResponse): void {
  for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
}
