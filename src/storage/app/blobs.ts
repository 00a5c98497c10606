/**
 * Artifact bytes, stored once per SHA-1 (ADR 0015). SQLite: files under DATA_DIR/blobs/ab/cdef…,
 * written before the rows that name them (content-addressed, so a file left by a failed upload is
 * simply found again by the retry). PostgreSQL: rows of artifact_blobs, inserted in the same
 * transaction as the rows that name them.
 */
import { randomBytes } from "node:crypto";
import { access, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { sql, type Compilable } from "kysely";
import type { AppQueries } from "./dialect";

export interface Blob {
  sha1: string;
  bytes: Buffer;
}

export interface BlobStore {
  /** Stores `blobs` now (SQLite) or answers the statements that store them, for `atomically` (PostgreSQL). */
  stage(blobs: readonly Blob[]): Promise<Compilable[]>;
  read(sha1: string): Promise<Buffer | null>;
}

const SHA1 = /^[0-9a-f]{40}$/;
/**
 * PostgreSQL sends bytea as hex text, which pg decodes on the main thread: a 5 MB map in one value
 * held the event loop for 57-96 ms under load (bench/results/2026-11-27-sourcemaps.md). Read in
 * slices, each decoded in a turn of its own, so ingest requests are answered in between.
 */
const READ_SLICE_BYTES = 512 * 1024;

function checkedSha1(sha1: string): string {
  // Blob names become file paths: only a plain lower-case SHA-1 may get there.
  if (!SHA1.test(sha1)) throw new Error(`not a SHA-1: ${JSON.stringify(sha1.slice(0, 64))}`);
  return sha1;
}

export function fileBlobStore(dataDir: string): BlobStore {
  const root = path.join(dataDir, "blobs");
  const fileOf = (sha1: string) => path.join(root, sha1.slice(0, 2), sha1.slice(2));
  const exists = (file: string) => access(file).then(() => true, () => false);
  return {
    async stage(blobs) {
      for (const { sha1, bytes } of blobs) {
        const file = fileOf(checkedSha1(sha1));
        if (await exists(file)) continue;
        await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
        // Written aside and renamed: a reader never sees a half-written blob under its name.
        const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
        try {
          await writeFile(temporary, bytes, { mode: 0o600, flush: true });
          await rename(temporary, file);
        } catch (error) {
          await unlink(temporary).catch(() => undefined);
          throw error;
        }
      }
      return [];
    },
    async read(sha1) {
      if (!SHA1.test(sha1)) return null;
      try {
        return await readFile(fileOf(sha1));
      } catch (error) {
        if ((error as { code?: unknown }).code === "ENOENT") return null;
        throw error;
      }
    },
  };
}

export function tableBlobStore(db: AppQueries): BlobStore {
  return {
    async stage(blobs) {
      return blobs.map(({ sha1, bytes }) =>
        db
          .insertInto("artifact_blobs")
          .values({ sha1: checkedSha1(sha1), size: bytes.length, data: bytes })
          .onConflict((conflict) => conflict.column("sha1").doNothing()),
      );
    },
    async read(sha1) {
      if (!SHA1.test(sha1)) return null;
      const head = await db.selectFrom("artifact_blobs").select("size").where("sha1", "=", sha1).executeTakeFirst();
      if (!head) return null;
      const out = Buffer.alloc(Number(head.size));
      for (let start = 0; start < out.length; start += READ_SLICE_BYTES) {
        // substring() on bytea counts bytes from 1.
        const slice = await db
          .selectFrom("artifact_blobs")
          .select(sql<Uint8Array>`substring(data from ${start + 1} for ${READ_SLICE_BYTES})`.as("part"))
          .where("sha1", "=", sha1)
          .executeTakeFirst();
        if (!slice) return null;
        Buffer.from(slice.part).copy(out, start);
      }
      return out;
    },
  };
}
