import type { StoredAttachment } from "../../model";
import { isoDate } from "./common";

/** Sentry's EventAttachment shape. */
export function serializeAttachment(attachment: StoredAttachment) {
  const mimetype = attachment.contentType ?? "application/octet-stream";
  return {
    id: attachment.id,
    event_id: attachment.eventId,
    type: attachment.attachmentType,
    name: attachment.filename,
    mimetype,
    dateCreated: isoDate(attachment.received),
    size: attachment.size,
    headers: { "Content-Type": mimetype },
    sha1: attachment.sha1,
  };
}

/**
 * The headers of a download: always a download (`Content-Disposition: attachment`), never sniffed
 * (`nosniff`), whatever type the SDK named — an HTML or SVG file someone sent must not open as a
 * page of this origin. (Every answer also carries the server's CSP, src/http/page-headers.ts, which
 * allows no script without the page's nonce.)
 */
export function downloadHeaders(attachment: StoredAttachment): Record<string, string> {
  const ascii = attachment.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return {
    "Content-Type": attachment.contentType ?? "application/octet-stream",
    "Content-Length": String(attachment.size),
    "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(attachment.filename)}`,
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
  };
}
