/**
 * The source-map thread: parses uploaded source maps and looks positions up in them, so that a
 * 5 MB map's JSON.parse and mapping decode never block the main thread's event loop. Holds the
 * parsed maps in an LRU cache bounded by SOURCEMAP_CACHE_MB. Started by SourceMapThread
 * (sourcemap.main.ts); workerData is a SourceMapThreadData.
 */
import { parentPort, workerData } from "node:worker_threads";
import { nameThisThread } from "../thread-name";
import { answerLookups } from "./answer-lookups";
import { MapCache } from "./map-cache";
import type { FromThread, ToThread } from "../threads/protocol";
import { SOURCEMAP_THREAD_NAME, type LookupAnswer, type ResolveRequest, type SourceMapThreadData } from "./sourcemap.protocol";

if (!parentPort) throw new Error("sourcemap.thread.ts runs only as a worker thread (see sourcemap.main.ts)");
const port = parentPort;
nameThisThread(SOURCEMAP_THREAD_NAME);
const { cacheBytes } = workerData as SourceMapThreadData;
const cache = new MapCache(cacheBytes);

// Only SourceMapThread's ThreadClient posts here, so the messages are ToThread by construction.
port.on("message", (message: ToThread<ResolveRequest>) => {
  if (message.type === "close") {
    port.close();
    return;
  }
  let answer: FromThread<LookupAnswer[]>;
  try {
    answer = { type: "done", id: message.id, body: answerLookups(cache, message.body.lookups, message.body.contents) };
  } catch (error) {
    answer = { type: "failed", id: message.id, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
