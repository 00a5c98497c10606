/**
 * The storage contract for attachments (issue 38), once per engine: metadata and bytes come back
 * as given, a retry is stored once, the project's limit is kept (the rest counted invalid,
 * too_large, in bytes and items), and retention removes rows and bytes together.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import type { AttachmentRecord, Project, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";
import { withTwoProjects } from "./two-projects";

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const DAY = 86_400_000;
const EVENT = "e".repeat(32);

function record(projectId: string, name: string, bytes: Buffer, options: { received?: number; limit?: number; eventId?: string } = {}): AttachmentRecord {
  const sha1 = createHash("sha1").update(bytes).digest("hex");
  return {
    kind: "attachment", projectId, received: options.received ?? NOW, projectLimit: options.limit ?? 1 << 30, bytes,
    attachment: {
      id: createHash("sha1").update(`${options.eventId ?? EVENT}${name}${sha1}`).digest("hex").slice(0, 32), eventId: options.eventId ?? EVENT,
      filename: name, contentType: "text/plain", attachmentType: "event.attachment", size: bytes.length, sha1,
    },
  };
}

export function attachmentContract(engine: string, factory: EngineFactory): void {
  describe(`storage contract, attachments: ${engine}`, () => {
    let storage: Storage;
    let project: Project;
    let other: Project;
    withTwoProjects(factory, (made) => ({ storage, project, other } = made));

    it("gives metadata and bytes back, per event and project, and stores a retry once", async () => {
      // Over one read slice of PostgreSQL (512 KiB), with every byte value.
      const big = Buffer.alloc(700_000, 0).map((_, i) => (i * 7) % 256);
      const a = record(project.id, "notes.txt", Buffer.from("line one\nline two\n"));
      const b = record(project.id, "dump.bin", Buffer.from(big));
      assert.deepEqual(await storage.ingest.commit([a, b]), [{ kind: "attachment", stored: true }, { kind: "attachment", stored: true }]);
      assert.deepEqual(await storage.ingest.commit([a]), [{ kind: "attachment", stored: true }]);
      const listed = await storage.attachments.listForEvent(project.id, EVENT);
      assert.deepEqual(listed, [
        { ...b.attachment, projectId: project.id, received: NOW },
        { ...a.attachment, projectId: project.id, received: NOW },
      ]);
      assert.deepEqual(await storage.attachments.get(project.id, EVENT, a.attachment.id), { ...a.attachment, projectId: project.id, received: NOW });
      assert.equal((await storage.attachments.read(project.id, EVENT, a.attachment.id))?.toString(), "line one\nline two\n");
      assert.ok((await storage.attachments.read(project.id, EVENT, b.attachment.id))?.equals(big));
      assert.deepEqual(await storage.attachments.listForEvent(other.id, EVENT), []);
      assert.equal(await storage.attachments.read(other.id, EVENT, a.attachment.id), null);
      assert.equal(await storage.attachments.get(project.id, "f".repeat(32), a.attachment.id), null);
      const totals = await storage.outcomes.totals(project.id, NOW - DAY);
      assert.deepEqual(totals.filter((t) => t.category.startsWith("attachment")).map((t) => [t.outcome, t.category, t.reason, t.quantity]).toSorted(), [
        ["accepted", "attachment", null, a.attachment.size * 2 + b.attachment.size],
        ["accepted", "attachment_item", null, 3],
      ]);
    });

    it("keeps the project's limit: what would pass it is not stored, and counted too_large", async () => {
      const first = record(project.id, "a.txt", Buffer.alloc(600, 1), { limit: 1_000 });
      const second = record(project.id, "b.txt", Buffer.alloc(600, 2), { limit: 1_000 });
      const small = record(project.id, "c.txt", Buffer.alloc(300, 3), { limit: 1_000 });
      const elsewhere = record(other.id, "b.txt", Buffer.alloc(600, 2), { limit: 1_000 });
      assert.deepEqual(await storage.ingest.commit([first, second, small, elsewhere]), [
        { kind: "attachment", stored: true }, { kind: "attachment", stored: false }, { kind: "attachment", stored: true }, { kind: "attachment", stored: true },
      ]);
      assert.deepEqual((await storage.attachments.listForEvent(project.id, EVENT)).map((a) => a.filename), ["a.txt", "c.txt"]);
      const totals = await storage.outcomes.totals(project.id, NOW - DAY);
      assert.deepEqual(totals.filter((t) => t.category.startsWith("attachment")).map((t) => [t.outcome, t.category, t.reason, t.quantity]).toSorted(), [
        ["accepted", "attachment", null, 900], ["accepted", "attachment_item", null, 2],
        ["invalid", "attachment", "too_large", 600], ["invalid", "attachment_item", "too_large", 1],
      ]);
    });

    it("expires attachments with their day, bytes and all, and keeps newer ones", async () => {
      const old = record(project.id, "old.txt", Buffer.from("old"), { received: NOW - 100 * DAY, eventId: "a".repeat(32) });
      const fresh = record(project.id, "new.txt", Buffer.from("new"));
      await storage.ingest.commit([old, fresh]);
      await storage.retention.expire(NOW - 90 * DAY);
      assert.deepEqual(await storage.attachments.listForEvent(project.id, "a".repeat(32)), []);
      assert.equal(await storage.attachments.read(project.id, "a".repeat(32), old.attachment.id), null);
      assert.equal((await storage.attachments.read(project.id, EVENT, fresh.attachment.id))?.toString(), "new");
    });
  });
}
