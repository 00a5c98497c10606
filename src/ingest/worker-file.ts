import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * Starts a worker thread from its entry module: beside the bundle under `npm start`, which builds
 * the worker as an entry of its own into the directory of server.mjs (scripts/start.mjs), or from
 * the TypeScript beside this file under tsx (tests, `npm run dev`). tsx's hooks do not reach worker
 * threads by themselves, so there the worker first registers them through tsx's API.
 */
export function startWorker(stem: "ingest-worker", options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL(`./${stem}.mjs`, import.meta.url), options);
  const tsxApi = import.meta.resolve("tsx/esm/api");
  const entry = new URL(`./${stem}.ts`, import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}
