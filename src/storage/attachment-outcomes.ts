/**
 * The outcomes of an attachment, counted by the store that decided whether it fits its project's
 * limit (src/items/attachment.ts): bytes in `attachment`, one in `attachment_item`.
 */
import type { AttachmentRecord, IngestRecord } from "./types";

type Outcome = Extract<IngestRecord, { kind: "outcome" }>;

export function attachmentOutcomes(record: AttachmentRecord, stored: boolean): Outcome[] {
  const base = { kind: "outcome", projectId: record.projectId, timestamp: record.received } as const;
  const outcome = stored ? "accepted" : "invalid";
  const reason = stored ? null : "too_large";
  return [
    { ...base, outcome, category: "attachment", reason, quantity: record.attachment.size },
    { ...base, outcome, category: "attachment_item", reason, quantity: 1 },
  ];
}
