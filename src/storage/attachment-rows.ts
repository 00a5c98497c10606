/** Attachment rows as both engines store them (migrations 0018 SQLite / 0013 PostgreSQL), and back. */
import type { StoredAttachment } from "./types";

export interface AttachmentRow {
  project_id: number | string;
  event_id: string;
  id: string;
  filename: string;
  content_type: string | null;
  attachment_type: string;
  size: number | string;
  sha1: string;
  received: number | string;
}

export const toAttachment = (row: AttachmentRow): StoredAttachment => ({
  id: row.id,
  eventId: row.event_id,
  projectId: String(row.project_id),
  filename: row.filename,
  contentType: row.content_type,
  attachmentType: row.attachment_type,
  size: Number(row.size),
  sha1: row.sha1,
  received: Number(row.received),
});

/** The metadata columns (all but the bytes), in the order both engines list them. */
export const ATTACHMENT_META = "project_id, event_id, id, filename, content_type, attachment_type, size, sha1, received";

/** Where SQLite keeps an attachment's bytes: DATA_DIR/attachments/ab/abcdef… (ids are 32 hex digits, checked). */
export function attachmentFilePath(dataDir: string, id: string): string {
  if (!/^[0-9a-f]{32}$/.test(id)) throw new Error(`not an attachment id: ${JSON.stringify(id.slice(0, 64))}`);
  return `${dataDir}/attachments/${id.slice(0, 2)}/${id}`;
}
