import type { DirectHandler } from "../http/direct-server";
import type { RequestHead } from "../http/request-head";
import { decodeBody } from "./body";
import { ingestAnswer, type IngestDeps } from "./http";
import { matchIngestRoute, type IngestRoute } from "./route";

/**
 * Which requests the direct reader (src/http/direct-server.ts) answers: POSTs to the envelope and
 * store endpoints, through the same ingestAnswer as node:http's path. The tunnel (the UI's own
 * monitoring, whose connections also carry pages), OPTIONS and every path that is not ingest stay
 * with node:http; so does a path matchIngestRoute refuses, which node:http's path answers with 400.
 */
export function directIngest(deps: IngestDeps): (head: RequestHead) => DirectHandler | null {
  return (head) => {
    if (head.method !== "POST") return null;
    let route: IngestRoute | null;
    try {
      route = matchIngestRoute(head.target);
    } catch {
      return null;
    }
    if (!route || route.endpoint === "tunnel") return null;
    const ingestRoute = route;
    return (request, body, socket) =>
      ingestAnswer(
        {
          method: request.method,
          url: request.target,
          headers: request.headers,
          client: { address: socket.remoteAddress, userAgent: request.headers["user-agent"] },
        },
        ingestRoute,
        () => decodeBody(body, request.headers["content-encoding"], deps.config.limits),
        deps,
      );
  };
}
