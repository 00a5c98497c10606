import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError, errorBody, httpStatusOf } from "../errors";
import { acceptAuthenticated, type IngestDeps } from "./accept";
import { credentialsFromEnvelopeHeader, extractRequestCredentials, parseDsn, type Credentials } from "./auth";
import { discardRest, readBody } from "./body";
import { corsHeadersWith, setCorsHeaders } from "./cors";
import { parseEnvelope, readEnvelopeHeader, type Envelope } from "./envelope";
import type { IngestRoute } from "./route";
import type { IngestJob } from "./sink";
import { tunnel } from "./tunnel";

export type { IngestDeps } from "./accept";

/**
 * The ingest door: route + auth → body → envelope → sink (items → group commit) → 200 {id}.
 * Runs on plain node:http, never through Next (architecture.md: ~25k req/s vs ~1k through a route
 * handler). Answers only after the records are committed.
 */
export async function handleIngest(req: IncomingMessage, res: ServerResponse, route: IngestRoute, deps: IngestDeps) {
  // CORS headers go into the one writeHead of each answer: with no setHeader before it, Node writes
  // the given object as is instead of storing and re-validating each header (measured ≈ 2 % of the
  // door's CPU per event).
  if (req.method === "OPTIONS") {
    res.writeHead(200, corsHeadersWith({ "Content-Length": "0" })).end();
    return;
  }
  try {
    if (req.method !== "POST") throw new AppError("method_not_allowed", `method not allowed: ${req.method ?? "?"} (use POST)`);
    if (route.endpoint === "tunnel") {
      const result = await tunnel(req, route, deps);
      if (result.kind === "forwarded") {
        setCorsHeaders(res);
        // Object.assign, not a spread with more properties (corsHeadersWith says why).
        res.writeHead(result.status, Object.assign({}, result.headers, { "Content-Length": result.body.length })).end(result.body);
        return;
      }
      await answer(res, result.job, deps);
      return;
    }
    await answer(res, await receive(req, route, deps), deps);
  } catch (error) {
    if (!(error instanceof AppError)) {
      void deps.captureServerException(error, { mechanism: "ingest", path: req.url?.split("?")[0], method: req.method });
    }
    sendIngestError(res, error instanceof AppError ? error : new AppError("unavailable", "internal error while ingesting"));
    // A request refused before its body was read must not leave the socket half-read; past 1 MiB the
    // connection is closed instead of reading an upload we already refused.
    if (!req.complete) discardRest(req);
  }
}

/** 200 only after the records are committed: acknowledged means stored. */
async function answer(res: ServerResponse, job: IngestJob, deps: IngestDeps): Promise<void> {
  const eventId = await deps.sink.ingest(job);
  send(res, 200, eventId ? { id: eventId } : {});
}

/** Sentry-style error answer, with CORS so browser SDKs can read it. */
export function sendIngestError(res: ServerResponse, error: AppError): void {
  if (error.retryAfterSeconds !== null) res.setHeader("Retry-After", String(error.retryAfterSeconds));
  // SDKs read X-Sentry-Rate-Limits before Retry-After; an empty category list means every category.
  if (error.code === "rate_limited") res.setHeader("X-Sentry-Rate-Limits", `${error.retryAfterSeconds ?? 60}::organization`);
  // Header values must be printable ASCII; the body carries the exact text.
  res.setHeader("X-Sentry-Error", error.message.replace(/[^\x20-\x7e]/g, "?"));
  send(res, httpStatusOf(error.code), errorBody(error));
}

async function receive(req: IncomingMessage, route: IngestRoute, deps: IngestDeps): Promise<IngestJob> {
  const requestCredentials = extractRequestCredentials(req.headers, route.query);
  if (!requestCredentials && route.endpoint === "store") {
    throw new AppError("unauthorized", "missing authorization information");
  }
  const body = await readBody(req, deps.config.limits);
  if (body.length === 0) throw new AppError("bad_request", "empty request body");

  // Without request auth the envelope header must authenticate before its framing is judged (401 before 400).
  const credentials = requestCredentials ?? credentialsFromEnvelopeHeader(readEnvelopeHeader(body)).credentials;
  const asEnvelope =
    route.endpoint === "envelope" || (req.headers["content-type"] ?? "").startsWith("application/x-sentry-envelope");
  const envelope = asEnvelope ? parseEnvelope(body) : null;
  if (envelope && requestCredentials) checkHeaderDsn(envelope, requestCredentials, route);
  return acceptAuthenticated(req, body, envelope, credentials, { projectId: route.projectId }, deps);
}

/** Request auth and the envelope header's dsn must name the same key and project (§2.2). */
function checkHeaderDsn(envelope: Envelope, credentials: Credentials, route: IngestRoute): void {
  const dsnValue = envelope.headers.dsn;
  if (typeof dsnValue !== "string") return;
  const dsn = parseDsn(dsnValue);
  if (!dsn) throw new AppError("bad_request", "invalid event envelope", ["the envelope header's dsn is not a valid DSN"]);
  if (dsn.publicKey !== credentials.publicKey) {
    throw new AppError("bad_request", "invalid event envelope", ["public key mismatch between envelope and request"]);
  }
  if (route.projectId !== null && dsn.projectId !== route.projectId) {
    throw new AppError("bad_request", "invalid event envelope", ["project id header mismatch between envelope and request"]);
  }
}

/** Every ingest answer, with CORS so browser SDKs can read it. */
function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res
    .writeHead(status, corsHeadersWith({ "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) }))
    .end(json);
}
