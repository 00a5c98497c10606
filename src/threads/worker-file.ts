import { inspect } from "node:util";
import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts a worker thread from its entry module, named without extension relative to the caller
 * (`new URL("./commit.thread", import.meta.url)`): beside the bundle under `npm start`, which builds
 * each `*.thread.ts` as an entry of its own into the directory of server.mjs (scripts/start.mjs), or the
 * TypeScript beside the caller under tsx (tests, `npm run dev`). tsx's hooks do not reach worker
 * threads by themselves, so there the worker first registers them through tsx's API.
 */
export function startWorker(entry: URL, options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL(`${entry.href}.mjs`), options);
  const tsxApi = import.meta.resolve("tsx/esm/api");
  const source = `${entry.href}.ts`;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * Posts `close` and waits for the thread to exit; one still running after `timeoutMs` is terminated
 * (`onTimeout` is told first). Node delivers every message the thread posted before it emits
 * "exit", so no answer is lost while waiting.
 */
export async function closeWorker(worker: Worker, close: unknown, timeoutMs: number, onTimeout?: () => void): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.postMessage(close);
  const timer = setTimeout(() => {
    onTimeout?.();
    void worker.terminate();
  }, timeoutMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Calls `stopped` once the thread has exited, with why: "<name> stopped (exit code N: what it threw)".
 * Node delivers every message the thread posted before "exit".
 */
export function whenStopped(worker: Worker, name: string, stopped: (reason: string) => void): void {
  let failure = "";
  // What reaches here is whatever the thread threw, not necessarily an Error.
  worker.on("error", (error: unknown) => (failure = error instanceof Error ? error.message : inspect(error)));
  worker.on("exit", (code) => stopped(`${name} stopped (exit code ${code}${failure ? `: ${failure}` : ""})`));
}
