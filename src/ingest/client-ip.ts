/**
 * The client's network address for requests handed to Next (login throttling, audit log). Behind a
 * trusted reverse proxy it is the last X-Forwarded-For entry — the one the proxy itself appended;
 * earlier entries are whatever the client claimed.
 */
import type { IncomingMessage } from "node:http";

export const CLIENT_IP_HEADER = "x-periscope-client-ip";

export function clientIpOf(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers["x-forwarded-for"];
    const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").map((part) => part.trim()).filter(Boolean).pop();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? "unknown";
}
