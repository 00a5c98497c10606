/**
 * The source-map thread: parses uploaded source maps and looks positions up in them, so that a
 * 5 MB map's JSON.parse and mapping decode never block the main thread's event loop. Holds the
 * parsed maps in an LRU cache bounded by SOURCEMAP_CACHE_MB. Started by SourceMapThread
 * (sourcemap-thread.ts); workerData is a SourceMapThreadData.
 */
import { parentPort, workerData } from "node:worker_threads";
import { nameThisThread } from "../thread-name";
import { answerLookups } from "./answer-lookups";
import { MapCache } from "./map-cache";
import { SOURCEMAP_THREAD_NAME, type FromSourceMapThread, type SourceMapThreadData, type ToSourceMapThread } from "./sourcemap-protocol";

if (!parentPort) throw new Error("sourcemap-worker.ts runs only as a worker thread (see sourcemap-thread.ts)");
const port = parentPort;
nameThisThread(SOURCEMAP_THREAD_NAME);
const { cacheBytes } = workerData as SourceMapThreadData;
const cache = new MapCache(cacheBytes);

// Only SourceMapThread posts here, so the messages are ToSourceMapThread by construction.
port.on("message", (message: ToSourceMapThread) => {
  if (message.type === "close") {
    port.close();
    return;
  }
  const answer: FromSourceMapThread = { type: "resolved", id: message.id, answers: answerLookups(cache, message.lookups, message.contents) };
  port.postMessage(answer);
});
