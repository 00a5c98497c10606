import { storageContract, type EngineFactory } from "../../src/storage/contract/suite";
import { telemetryContract } from "../../src/storage/contract/telemetry-suite";
import { retentionContract } from "../../src/storage/contract/retention-suite";
import { createPostgresStorage } from "../../src/storage/postgres";
import type { Storage } from "../../src/storage/types";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";

const schemas = new Map<Storage, TestSchema>();

const postgres: EngineFactory = {
  async create() {
    const schema = await freshSchema();
    const storage = await createPostgresStorage({ url: schema.url, poolSize: 4 });
    schemas.set(storage, schema);
    return storage;
  },
  async destroy(storage) {
    await storage.close();
    await schemas.get(storage)!.drop();
    schemas.delete(storage);
  },
};

if (await postgresForTests("storage contract: postgres")) {
  storageContract("postgres", postgres);
  telemetryContract("postgres", postgres);
  retentionContract("postgres", postgres);
}
