import { ATTACHMENT_META, toAttachment, type AttachmentRow } from "../attachment-rows";
import type { AttachmentRecord, AttachmentRepo } from "../types";
import { isId, type PgDb, type Queryable } from "./db";

/**
 * pg decodes bytea from hex text on the main thread: read in slices, each decoded in a turn of its
 * own, so ingest requests are answered in between (as artifact blobs, src/storage/app/blobs.ts).
 */
const READ_SLICE_BYTES = 512 * 1024;

/**
 * Stores one attachment in the ingest transaction unless the project's attachments would pass its
 * limit: the project is locked for the rest of the transaction (an advisory lock), so two processes
 * storing attachments of one project at once count each other's. Answers whether it was stored.
 */
export async function writeAttachment(tx: Queryable, record: AttachmentRecord): Promise<boolean> {
  const { attachment: a } = record;
  const projectId = Number(record.projectId);
  await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('periscope.attachments.' || $1::bigint, 0))", [projectId]);
  const existing = await tx.query<{ id: string }>(
    "SELECT id FROM attachments WHERE project_id = $1 AND event_id = $2 AND id = $3 LIMIT 1",
    [projectId, a.eventId, a.id],
  );
  // An SDK retry: stored already, and counted again like any retried item.
  if (existing.length > 0) return true;
  const [usage] = await tx.query<{ total: string }>("SELECT COALESCE(SUM(size), 0) AS total FROM attachments WHERE project_id = $1", [projectId]);
  if (Number(usage?.total ?? 0) + a.size > record.projectLimit) return false;
  await tx.query(
    `INSERT INTO attachments (project_id, event_id, id, filename, content_type, attachment_type, size, sha1, received, data)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
    [projectId, a.eventId, a.id, a.filename, a.contentType, a.attachmentType, a.size, a.sha1, record.received, record.bytes],
  );
  return true;
}

export function postgresAttachments(db: PgDb): AttachmentRepo {
  async function row(projectId: string, eventId: string, id: string): Promise<AttachmentRow | null> {
    if (!isId(projectId)) return null;
    const [found] = await db.query<AttachmentRow>(
      `SELECT ${ATTACHMENT_META} FROM attachments WHERE project_id = $1 AND event_id = $2 AND id = $3 ORDER BY received LIMIT 1`,
      [Number(projectId), eventId, id],
    );
    return found ?? null;
  }
  return {
    async listForEvent(projectId, eventId) {
      if (!isId(projectId)) return [];
      const rows = await db.query<AttachmentRow>(
        `SELECT DISTINCT ON (received, filename, id) ${ATTACHMENT_META} FROM attachments WHERE project_id = $1 AND event_id = $2
         ORDER BY received, filename, id`,
        [Number(projectId), eventId],
      );
      return rows.map(toAttachment);
    },
    async get(projectId, eventId, id) {
      const found = await row(projectId, eventId, id);
      return found ? toAttachment(found) : null;
    },
    async read(projectId, eventId, id) {
      const found = await row(projectId, eventId, id);
      if (!found) return null;
      const size = Number(found.size);
      const out = Buffer.alloc(size);
      for (let start = 0; start < size; start += READ_SLICE_BYTES) {
        // substring() on bytea counts bytes from 1.
        const [slice] = await db.query<{ part: Uint8Array }>(
          "SELECT substring(data from $4 for $5) AS part FROM attachments WHERE project_id = $1 AND event_id = $2 AND id = $3 AND received = $6",
          [Number(projectId), eventId, id, start + 1, READ_SLICE_BYTES, Number(found.received)],
        );
        // Gone in between (retention): as if it had never been there.
        if (!slice) return null;
        Buffer.from(slice.part).copy(out, start);
      }
      return out;
    },
  };
}
