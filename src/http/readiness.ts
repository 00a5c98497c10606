/**
 * Answers that server.ts gives itself, on the main thread, without Next.js: the health route for load
 * balancers and process managers, and the 503 for a page or API request that arrives before Next is
 * prepared (the port is bound first so that SDKs' ingest is served at once; Next would otherwise
 * reject such a request and leave it unanswered). docs/deployment.md#health-check.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export const HEALTH_PATH = "/_health";

/** Where the server is in its life: the UI (Next) is being prepared, serves, or the process is stopping. */
export type ServerPhase = "starting" | "ready" | "stopping";

export type DatabaseHealth = "ok" | "unreachable";

/** How long the health route waits for the database's answer to `SELECT 1` before calling it unreachable. */
export const PING_TIMEOUT_MS = 2_000;

/** Seconds a client is asked to wait while the UI is being prepared (≈ 1 s after a build). */
const STARTING_RETRY_AFTER_SECONDS = 2;

export function isHealthRequest(url: string): boolean {
  const end = url.indexOf("?");
  return (end === -1 ? url : url.slice(0, end)) === HEALTH_PATH;
}

/**
 * The database check the health route runs: one ping at a time however often it is asked (checks that
 * arrive meanwhile share its answer), and "unreachable" after `timeoutMs` even if the ping never
 * settles (a database host that stopped answering), so a health check never waits on the pool.
 */
export function databaseCheck(ping: () => Promise<void>, timeoutMs = PING_TIMEOUT_MS): () => Promise<DatabaseHealth> {
  let running: Promise<DatabaseHealth> | null = null;
  return () => {
    running ??= new Promise<DatabaseHealth>((resolve) => {
      const timer = setTimeout(() => resolve("unreachable"), timeoutMs);
      ping().then(
        () => resolve("ok"),
        () => resolve("unreachable"),
      ).finally(() => clearTimeout(timer));
    }).finally(() => (running = null));
    return running;
  };
}

/**
 * GET or HEAD /_health: `{"status": phase, "database": "ok" | "unreachable"}`, 200 only when the UI
 * is ready and the database answers, 503 (with Retry-After) otherwise. No authentication: it tells
 * nothing but those two words.
 */
export async function answerHealth(req: IncomingMessage, res: ServerResponse, phase: ServerPhase, database: () => Promise<DatabaseHealth>): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    const detail = `method ${req.method ?? ""} not allowed on ${HEALTH_PATH}: use GET or HEAD`;
    send(res, req, 405, { Allow: "GET, HEAD", "Content-Type": "application/json" }, JSON.stringify({ detail }));
    return;
  }
  const status = await database();
  const healthy = phase === "ready" && status === "ok";
  const headers: Record<string, string> = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  if (!healthy) headers["Retry-After"] = String(phase === "starting" ? STARTING_RETRY_AFTER_SECONDS : 5);
  send(res, req, healthy ? 200 : 503, headers, JSON.stringify({ status: phase, database: status }));
}

/**
 * A page or API request that Next cannot take: it is still being prepared, or preparing it failed (the
 * process then exits). 503 and Retry-After, never a hang.
 */
export function answerNotReady(req: IncomingMessage, res: ServerResponse, why: "starting" | "failed"): void {
  const reason = why === "starting" ? "Periscope is starting: the UI is not ready yet, retry shortly" : "Periscope failed to start its UI and is exiting";
  const apiRequest = (req.url ?? "").startsWith("/api/");
  const headers = {
    "Content-Type": apiRequest ? "application/json" : "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
    "Retry-After": String(why === "starting" ? STARTING_RETRY_AFTER_SECONDS : 5),
  };
  // Sentry's API error shape for API clients, a line of text for browsers and probes.
  send(res, req, 503, headers, apiRequest ? JSON.stringify({ detail: reason }) : `${reason}\n`);
}

function send(res: ServerResponse, req: IncomingMessage, status: number, headers: Record<string, string>, body: string): void {
  const bytes = Buffer.from(body);
  res.writeHead(status, { ...headers, "Content-Length": bytes.length });
  res.end(req.method === "HEAD" ? undefined : bytes);
}
