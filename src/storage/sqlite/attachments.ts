import { ATTACHMENT_META, toAttachment, type AttachmentRow } from "../attachment-rows";
import type { AttachmentRepo } from "../types";
import { attachmentFiles } from "./attachment-files";
import type { Db } from "./db";

/** Attachments' rows in `attachments`, their bytes in files (attachment-files.ts). */
export function sqliteAttachments(db: Db): AttachmentRepo {
  const ofEvent = db.prepare<[number, string], AttachmentRow>(
    `SELECT ${ATTACHMENT_META} FROM attachments WHERE project_id = ? AND event_id = ? ORDER BY received, filename, id`,
  );
  const one = db.prepare<[number, string, string], AttachmentRow>(
    `SELECT ${ATTACHMENT_META} FROM attachments WHERE project_id = ? AND event_id = ? AND id = ?`,
  );
  const files = attachmentFiles(db);
  const projectNumber = (projectId: string) => (/^\d{1,15}$/.test(projectId) ? Number(projectId) : -1);
  return {
    async listForEvent(projectId, eventId) {
      return ofEvent.all(projectNumber(projectId), eventId).map(toAttachment);
    },
    async get(projectId, eventId, id) {
      const row = one.get(projectNumber(projectId), eventId, id);
      return row ? toAttachment(row) : null;
    },
    async read(projectId, eventId, id) {
      const row = one.get(projectNumber(projectId), eventId, id);
      return row ? files.read(row.id) : null;
    },
  };
}
