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

const sqlite: EngineFactory = {
  async create() {
    const dir = mkdtempSync(path.join(tmpdir(), "periscope-sqlite-"));
    const storage = createSqliteStorage(dir);
    dirs.set(storage, dir);
    return storage;
  },
  async destroy(storage) {
    await storage.close();
    rmSync(dirs.get(storage)!, { recursive: true, force: true });
    dirs.delete(storage);
  },
};

storageContract("sqlite", sqlite);
telemetryContract("sqlite", sqlite);
retentionContract("sqlite", sqlite);
accountsContract("sqlite", sqlite);
