/**
 * Attachment bytes on SQLite: files under DATA_DIR/attachments (the database file's folder), written
 * by the commit (on the commit thread) before the row that names them, to a temporary name and
 * renamed, with their data flushed: a reader never sees half a file, and a committed row's file
 * survives a crash. Read and deleted from the main thread (reads, retention).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { readFile, unlink } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { attachmentFilePath } from "../attachment-rows";
import type { Db } from "./db";

export function attachmentFiles(db: Db) {
  const dataDir = path.dirname(db.name);
  const fileOf = (id: string) => attachmentFilePath(dataDir, id);
  return {
    /** Synchronous: it runs inside the commit's transaction. */
    write(id: string, bytes: Uint8Array): void {
      const file = fileOf(id);
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
      const fd = openSync(temporary, "w", 0o600);
      try {
        for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      try {
        renameSync(temporary, file);
      } catch (error) {
        try {
          unlinkSync(temporary);
        } catch {
          // already gone
        }
        throw error;
      }
    },
    async read(id: string): Promise<Buffer | null> {
      try {
        return await readFile(fileOf(id));
      } catch (error) {
        if ((error as { code?: unknown }).code === "ENOENT") return null;
        throw error;
      }
    },
    async remove(id: string): Promise<void> {
      await unlink(fileOf(id)).catch((error: unknown) => {
        if ((error as { code?: unknown }).code !== "ENOENT") throw error;
      });
    },
  };
}
