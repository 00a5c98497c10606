import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { accountsContract } from "../../src/storage/contract/accounts-suite";
import { storageContract, type EngineFactory } from "../../src/storage/contract/suite";
import { retentionContract } from "../../src/storage/contract/retention-suite";
import { telemetryContract } from "../../src/storage/contract/telemetry-suite";
import { createSqliteStorage } from "../../src/storage/sqlite";
import type { Storage } from "../../src/storage/types";

const dirs = new Map<Storage, string>();

/** The ingest commits on the calling thread, or on the commit thread (SQLITE_COMMIT_THREAD, the server's default). */
const sqlite = (commitThread: boolean): EngineFactory => ({
  async create() {
    const dir = mkdtempSync(path.join(tmpdir(), "periscope-sqlite-"));
    const storage = createSqliteStorage(dir, { commitThread });
    dirs.set(storage, dir);
    return storage;
  },
  async destroy(storage) {
    await storage.close();
    rmSync(dirs.get(storage)!, { recursive: true, force: true });
    dirs.delete(storage);
  },
  storedNul: "\u0000",
});

for (const [name, commitThread] of [["sqlite", false], ["sqlite, commit thread", true]] as const) {
  storageContract(name, sqlite(commitThread));
  telemetryContract(name, sqlite(commitThread));
  retentionContract(name, sqlite(commitThread));
  accountsContract(name, sqlite(commitThread));
}
