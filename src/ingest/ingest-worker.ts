/**
 * The ingest worker thread: parses item payloads, normalises, groups and commits, on a storage
 * connection of its own, while the main thread runs HTTP and the UI. Started by WorkerSink
 * (src/ingest/worker-sink.ts); workerData is the Config the main thread validated.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Config } from "../config";
import { createItemRegistry } from "../items";
import { createLogger } from "../logger";
import { createIngestStorage } from "../storage";
import type { IngestStorage } from "../storage/types";
import { nameThisThread } from "../thread-name";
import { inProcessSink } from "./sink";
import { fromWire, INGEST_THREAD_NAME, toWireError, type FromWorker, type ToWorker } from "./worker-protocol";
import { GroupCommitWriter } from "./writer";

if (!parentPort) throw new Error("ingest-worker.ts runs only as a worker thread (see src/ingest/worker-sink.ts)");
const port = parentPort;
nameThisThread(INGEST_THREAD_NAME);
const config = workerData as Config;
const logger = createLogger(config.logLevel);
const post = (message: FromWorker) => port.postMessage(message);

async function run(): Promise<void> {
  let storage: IngestStorage;
  try {
    storage = await createIngestStorage(config);
  } catch (error) {
    post({ type: "startup_failed", error: toWireError(error) });
    return;
  }
  const sink = inProcessSink(createItemRegistry(config.limits), new GroupCommitWriter(storage.ingest, config.writer), config.limits);
  let closing = false;

  // Only WorkerSink posts here, so the messages are ToWorker by construction.
  port.on("message", (message: ToWorker) => {
    if (message.type === "job") {
      sink.ingest(fromWire(message.job)).then(
        (eventId) => post({ type: "done", id: message.id, eventId }),
        (error: unknown) => post({ type: "failed", id: message.id, error: toWireError(error) }),
      );
      return;
    }
    if (closing) return;
    closing = true;
    void sink
      .close()
      .then(() => storage.close())
      .catch((error: unknown) => logger.error("ingest worker: closing the storage failed", error))
      .finally(() => port.close());
  });
  post({ type: "ready" });
}

void run();
