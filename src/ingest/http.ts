import type { IncomingMessage, ServerResponse } from "node:http";
import type { Config } from "../config";
import { AppError, errorBody, httpStatusOf } from "../errors";
import type { ItemRegistry } from "../items";
import type { ItemContext } from "../items/types";
import type { Logger } from "../logger";
import { credentialsFromEnvelopeHeader, extractRequestCredentials, parseDsn, type Credentials } from "./auth";
import { readBody } from "./body";
import { setCorsHeaders } from "./cors";
import { parseEnvelope, readEnvelopeHeader, type Envelope } from "./envelope";
import type { KeyCache } from "./keys";
import { processEnvelope, processStoreBody, type Processed } from "./pipeline";
import type { IngestRoute } from "./route";
import type { GroupCommitWriter } from "./writer";

export interface IngestDeps {
  config: Config;
  keys: KeyCache;
  registry: ItemRegistry;
  writer: GroupCommitWriter;
  logger: Logger;
}

/**
 * The ingest door: route + auth → body → envelope → items → group commit → 200 {id}.
 * Runs on plain node:http, never through Next (architecture.md: ~25k req/s vs ~1k through a route
 * handler). Answers only after the records are committed.
 */
export async function handleIngest(req: IncomingMessage, res: ServerResponse, route: IngestRoute, deps: IngestDeps) {
  setCorsHeaders(res);
  if (req.method === "OPTIONS") {
    res.writeHead(200, { "Content-Length": "0" }).end();
    return;
  }
  try {
    if (req.method !== "POST") throw new AppError("method_not_allowed", `method not allowed: ${req.method ?? "?"} (use POST)`);
    const processed = await receive(req, route, deps);
    await deps.writer.submit(processed.records);
    send(res, 200, processed.eventId ? { id: processed.eventId } : {});
  } catch (error) {
    if (!(error instanceof AppError)) deps.logger.error("ingest failed", error);
    sendIngestError(res, error instanceof AppError ? error : new AppError("unavailable", "internal error while ingesting"));
    // A request refused before its body was read must not leave the socket half-read.
    if (!req.complete) req.resume();
  }
}

/** Sentry-style error answer, with CORS so browser SDKs can read it. */
export function sendIngestError(res: ServerResponse, error: AppError): void {
  setCorsHeaders(res);
  if (error.retryAfterSeconds !== null) res.setHeader("Retry-After", String(error.retryAfterSeconds));
  // Header values must be printable ASCII; the body carries the exact text.
  res.setHeader("X-Sentry-Error", error.message.replace(/[^\x20-\x7e]/g, "?"));
  send(res, httpStatusOf(error.code), errorBody(error));
}

async function receive(req: IncomingMessage, route: IngestRoute, deps: IngestDeps): Promise<Processed> {
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

  const resolved = await deps.keys.resolve(credentials.publicKey);
  if (!resolved || !resolved.key.isActive) {
    throw new AppError("forbidden", "event submission rejected with_reason: ProjectId", ["unknown or disabled DSN key"]);
  }
  if (route.projectId !== null && route.projectId !== resolved.project.id) {
    throw new AppError("forbidden", "event submission rejected with_reason: ProjectId", [
      `the key belongs to project ${resolved.project.id}, not ${route.projectId}`,
    ]);
  }
  const context: ItemContext = {
    projectId: resolved.project.id,
    envelopeHeaders: envelope?.headers ?? {},
    receivedAt: Date.now(),
    clientIp: req.socket.remoteAddress,
    userAgent: req.headers["user-agent"],
  };
  return envelope
    ? processEnvelope(envelope, deps.registry, context)
    : processStoreBody(body, deps.config.limits.maxEventBytes, context);
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

function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) }).end(json);
}
