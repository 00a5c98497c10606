/**
 * `attachment` items (docs/protocol.md §8.9): a file beside the event of the envelope (the
 * envelope header's `event_id`), with `filename`, `content_type` and `attachment_type`
 * (`event.attachment` by default; `event.minidump`, `event.view_hierarchy`, … are kept as plain files
 * too). Unlike an oversized event, an attachment over MAX_ATTACHMENT_BYTES does not refuse the
 * envelope: it alone is dropped (`invalid`, `too_large`) and the event and everything else is kept.
 * Whether it fits the project's limit (MAX_PROJECT_ATTACHMENT_BYTES) only the store can tell: it
 * counts the outcome (src/storage/attachment-outcomes.ts).
 *
 * Category `attachment` counts bytes and `attachment_item` items, as Sentry's data categories do.
 */
import { createHash } from "node:crypto";
import type { AttachmentRecord } from "../model";
import { hexIdOf, textOf } from "./telemetry-values";
import { outcome, type ItemContext, type ItemProcessor, type ItemResult } from "./types";

export const ATTACHMENT_CATEGORY = "attachment";
export const ATTACHMENT_ITEM_CATEGORY = "attachment_item";

export interface AttachmentLimits {
  /** Bytes of one attachment. */
  maxAttachmentBytes: number;
  /** Bytes of all stored attachments of one project. */
  maxProjectAttachmentBytes: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = { maxAttachmentBytes: 10 * 1024 * 1024, maxProjectAttachmentBytes: 1024 * 1024 * 1024 };

/** `type/subtype` with optional parameters, nothing that could break a header. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;\s*[a-z0-9_-]+=("[^"\r\n]*"|[^\s;"]+))*$/i;
const MAX_FILENAME = 255;

export function contentTypeOf(value: unknown): string | null {
  const text = textOf(value);
  return text !== undefined && MEDIA_TYPE.test(text) ? text : null;
}

/** The name as sent, without control characters or path parts; "attachment" when nothing is left. */
export function filenameOf(value: unknown): string {
  const text = textOf(value) ?? "";
  const base = text.replace(/[\u0000-\u001f\u007f]/g, "").split(/[\\/]/).pop()!.trim().slice(0, MAX_FILENAME);
  return base === "" || base === "." || base === ".." ? "attachment" : base;
}

const dropped = (context: ItemContext, reason: string, bytes: number): ItemResult => ({
  records: [outcome(context, "invalid", ATTACHMENT_CATEGORY, reason, bytes), outcome(context, "invalid", ATTACHMENT_ITEM_CATEGORY, reason, 1)],
});

export const attachmentItem = (limits: AttachmentLimits = DEFAULT_ATTACHMENT_LIMITS): ItemProcessor => ({
  category: ATTACHMENT_CATEGORY,
  // Checked here rather than by the pipeline: an oversized attachment must not take the envelope down.
  maxBytes: null,
  process(item, context) {
    const size = item.payload.length;
    if (size > limits.maxAttachmentBytes) return dropped(context, "too_large", size);
    const eventId = hexIdOf(context.envelopeHeaders.event_id, 32);
    if (eventId === undefined) return dropped(context, "missing_event_id", size);
    const filename = filenameOf(item.headers.filename);
    const sha1 = createHash("sha1").update(item.payload).digest("hex");
    const id = createHash("sha1").update(`${eventId}\u0000${filename}\u0000${sha1}`).digest("hex").slice(0, 32);
    const record: AttachmentRecord = {
      kind: "attachment",
      projectId: context.projectId,
      received: context.receivedAt,
      attachment: {
        id, eventId, filename, contentType: contentTypeOf(item.headers.content_type),
        attachmentType: textOf(item.headers.attachment_type)?.slice(0, 64) ?? "event.attachment", size, sha1,
      },
      // A copy: the payload is a slice of the request's whole body, which must not live on with it.
      bytes: Buffer.from(item.payload),
      projectLimit: limits.maxProjectAttachmentBytes,
    };
    return { records: [record] };
  },
});
