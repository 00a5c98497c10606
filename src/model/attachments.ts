/**
 * Attachments (`attachment` envelope items, docs/protocol.md §8.9): files an SDK sends with an
 * event — `event.attachment` (plain files), `event.minidump`, `event.view_hierarchy`, … — kept as
 * they came, as plain files, beside the event they name and expired with it.
 */

export interface AttachmentData {
  /** 32 hex digits: a hash of the event id, file name and content, so an SDK retry stores it once. */
  id: string;
  eventId: string;
  filename: string;
  /** As the SDK sent it, when it is a well-formed media type; else null (served as application/octet-stream). */
  contentType: string | null;
  /** `event.attachment`, `event.minidump`, `event.view_hierarchy`, … */
  attachmentType: string;
  size: number;
  /** Of the content, hex. */
  sha1: string;
}

export interface StoredAttachment extends AttachmentData {
  projectId: string;
  /** Unix ms. */
  received: number;
}

/** One attachment on its way to storage; the store decides whether it fits the project's limit. */
export interface AttachmentRecord {
  kind: "attachment";
  projectId: string;
  /** Unix ms. */
  received: number;
  attachment: AttachmentData;
  bytes: Uint8Array;
  /** The most bytes of attachments the project may hold (MAX_PROJECT_ATTACHMENT_BYTES). */
  projectLimit: number;
}
