/**
 * An event's attachments (issue 38) for the event page and the API: listed, described, downloaded.
 * The project has been authorised by the caller; ids that are not ids find nothing.
 */
import { AppError } from "../../errors";
import type { Project, StoredAttachment } from "../../model";
import type { Storage } from "../../storage/types";
import { normalizeEventId } from "./get-event";

const ATTACHMENT_ID = /^[0-9a-f]{32}$/;

export async function listAttachments(storage: Storage, project: Project, rawEventId: string): Promise<StoredAttachment[]> {
  const eventId = normalizeEventId(rawEventId);
  if (!eventId) throw new AppError("not_found", "event not found");
  return storage.attachments.listForEvent(project.id, eventId);
}

export async function getAttachment(storage: Storage, project: Project, rawEventId: string, attachmentId: string): Promise<StoredAttachment> {
  const eventId = normalizeEventId(rawEventId);
  const found = eventId && ATTACHMENT_ID.test(attachmentId) ? await storage.attachments.get(project.id, eventId, attachmentId) : null;
  if (!found) throw new AppError("not_found", "attachment not found");
  return found;
}

/** The attachment and its bytes; not_found when either is gone (retention may run in between). */
export async function downloadAttachment(storage: Storage, project: Project, rawEventId: string, attachmentId: string): Promise<{ attachment: StoredAttachment; bytes: Buffer }> {
  const attachment = await getAttachment(storage, project, rawEventId, attachmentId);
  const bytes = await storage.attachments.read(project.id, attachment.eventId, attachment.id);
  if (!bytes) throw new AppError("not_found", "attachment not found");
  return { attachment, bytes };
}
