/**
 * Next.js calls onRequestError for every error thrown while rendering a page, running a route
 * handler or a server action. The error carries the digest the fallback page shows the user, so
 * storing it as a tag lets an operator find the event from that digest (search `digest:<value>`).
 */
import type { Instrumentation } from "next";
import { scrubInviteSecrets } from "./src/monitoring/scrub-secrets";
import { peekRuntime } from "./src/runtime";

export const onRequestError: Instrumentation.onRequestError = async (error, request, context) => {
  const runtime = peekRuntime();
  if (!runtime) return;
  const digest = typeof error === "object" && error !== null && "digest" in error ? String(error.digest) : undefined;
  await runtime.captureServerException(error, {
    mechanism: "next.onRequestError",
    digest,
    path: scrubInviteSecrets(request.path.split("?")[0] ?? ""),
    method: request.method,
    routePath: context.routePath,
    routeType: context.routeType,
  });
};
