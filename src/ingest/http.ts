import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { AppError, errorBody, httpStatusOf } from "../errors";
import type { DirectAnswer } from "../http/direct-server";
import { acceptAuthenticated, preauthorize, QUOTA_MESSAGE, type IngestClient, type IngestDeps } from "./accept";
import { credentialsFromEnvelopeHeader, extractRequestCredentials, parseDsn, type Credentials } from "./auth";
import { discardRest, readBody } from "./body";
import type { BufferLease } from "./budget";
import { corsHeadersWith, setCorsHeaders } from "./cors";
import { parseEnvelope, readEnvelopeHeader, type Envelope } from "./envelope";
import { RateLimitedError } from "./key-rate-limit";
import { requestOrigin } from "./origins";
import type { IngestRoute } from "./route";
import type { IngestJob, RateLimitNotice } from "./sink";
import { tunnel } from "./tunnel";

export type { IngestDeps } from "./accept";

/**
 * What an ingest request is answered with, whichever server reads it: node:http (handleIngest) or
 * the direct path that reads ingest requests straight off the socket, whose answer it is.
 */
export type IngestAnswer = DirectAnswer;

/** What the envelope and store endpoints read of a request besides its body. */
export interface IngestRequestHead {
  method: string;
  /** Path and query as sent; self-monitoring's report of a fault names the path. */
  url: string;
  headers: IncomingHttpHeaders;
  client: IngestClient;
}

/**
 * The ingest door on node:http: route + auth → body → envelope → sink (items → group commit) →
 * 200 {id}. Never through Next: it costs ≈ 25× per request (docs/adr/0013-custom-server-in-front-of-next.md).
 * Answers only after the records are committed. SDKs' plain requests usually arrive through the
 * direct reader instead (src/ingest/direct.ts), which calls the same ingestAnswer; this path serves
 * the rest: preflights, the tunnel, chunked bodies, and connections it handed over.
 */
export async function handleIngest(req: IncomingMessage, res: ServerResponse, route: IngestRoute, deps: IngestDeps) {
  // CORS headers go into the one writeHead of each answer: with no setHeader before it, Node writes
  // the given object as is instead of storing and re-validating each header (measured ≈ 2 % of the
  // door's CPU per event).
  if (req.method === "OPTIONS") {
    res.writeHead(200, corsHeadersWith({ "Content-Length": "0" })).end();
    return;
  }
  const head: IngestRequestHead = {
    method: req.method ?? "?",
    url: req.url ?? "/",
    headers: req.headers,
    client: { address: req.socket.remoteAddress, userAgent: req.headers["user-agent"] },
  };
  const lease = deps.budget.lease(head.client.address);
  try {
    await answerRequest(req, res, route, head, lease, deps);
  } finally {
    lease.release();
  }
  // A request refused before its body was read must not leave the socket half-read; past 1 MiB the
  // connection is closed instead of reading an upload we already refused.
  if (!req.complete) discardRest(req);
}

async function answerRequest(req: IncomingMessage, res: ServerResponse, route: IngestRoute, head: IngestRequestHead, lease: BufferLease, deps: IngestDeps) {
  if (route.endpoint === "tunnel" && head.method === "POST") {
    try {
      const result = await tunnel(req, head.client, route, deps, lease);
      if (result.kind === "forwarded") {
        setCorsHeaders(res);
        // Object.assign, not a spread with more properties (corsHeadersWith says why).
        res.writeHead(result.status, Object.assign({}, result.headers, { "Content-Length": result.body.length })).end(result.body);
        return;
      }
      writeAnswer(res, await jobAnswer(result.job, deps));
    } catch (error) {
      writeAnswer(res, faultAnswer(error, head, deps));
    }
  } else {
    writeAnswer(res, await ingestAnswer(head, route, () => readBody(req, deps.config.limits, lease), deps));
  }
}

/**
 * What can be decided before the body is read (docs/protocol.md §2): the request's own credentials,
 * and whether their key may send to this project. Resolves with the credentials (null: only the
 * envelope header can carry them, so the body is needed); rejects with the AppError that refuses
 * the request. Synchronous when the key is cached (the common case), so the direct reader answers
 * without waiting a turn.
 */
export function admitIngest(head: IngestRequestHead, route: IngestRoute, deps: IngestDeps): Credentials | null | Promise<Credentials | null> {
  const credentials = extractRequestCredentials(head.headers, route.query);
  if (!credentials) {
    if (route.endpoint === "store") throw new AppError("unauthorized", "missing authorization information");
    return null;
  }
  const pending = preauthorize(credentials, { projectId: route.projectId, origin: requestOrigin(head.headers) }, deps);
  return pending ? pending.then(() => credentials) : credentials;
}

/**
 * The answer to a request to the envelope or store endpoint, once it is committed or refused.
 * `body` reads and decodes the body; it is called only after admitIngest, so a request with a bad
 * key, or a store request without any, is refused before its body is read. `admitted`: the
 * credentials admitIngest already gave for this request (the direct reader asks it before reading
 * the body). Never rejects.
 */
export async function ingestAnswer(
  head: IngestRequestHead,
  route: IngestRoute,
  body: () => Promise<Buffer>,
  deps: IngestDeps,
  admitted?: { credentials: Credentials | null },
): Promise<IngestAnswer> {
  try {
    if (head.method !== "POST") throw new AppError("method_not_allowed", `method not allowed: ${head.method} (use POST)`);
    return await jobAnswer(await receive(head, route, body, deps, admitted), deps);
  } catch (error) {
    return faultAnswer(error, head, deps);
  }
}

/**
 * The answer once the job's records are committed. When a quota dropped some of its items
 * (src/ingest/quotas.ts) the answer names the limits: 429 when nothing chargeable was accepted, else
 * 200 with `X-Sentry-Rate-Limits`, which SDKs read on every answer.
 */
function jobAnswer(job: IngestJob, deps: IngestDeps): Promise<IngestAnswer> {
  const limited = job.limited;
  return limited ? limitedAnswer(job, limited, deps) : committedAnswer(deps.sink.ingest(job));
}

async function limitedAnswer(job: IngestJob, limited: RateLimitNotice, deps: IngestDeps): Promise<IngestAnswer> {
  const answer = await committedAnswer(deps.sink.ingest(job));
  if (limited.refused) return errorAnswer(new RateLimitedError(QUOTA_MESSAGE, limited.retryAfter, limited.rateLimits, []));
  answer.headers["X-Sentry-Rate-Limits"] = limited.rateLimits;
  return answer;
}

/** 200 only after the records are committed: acknowledged means stored. */
async function committedAnswer(committed: Promise<string | null>): Promise<IngestAnswer> {
  const eventId = await committed;
  return jsonAnswer(200, eventId ? { id: eventId } : {});
}

/** An AppError's answer; anything else is our fault, reported to self-monitoring and answered 503. */
function faultAnswer(error: unknown, head: IngestRequestHead, deps: IngestDeps): IngestAnswer {
  if (error instanceof AppError) return errorAnswer(error);
  void deps.captureServerException(error, { mechanism: "ingest", path: head.url.split("?")[0], method: head.method });
  return errorAnswer(new AppError("unavailable", "internal error while ingesting"));
}

/** Sentry-style error answer, with CORS so browser SDKs can read it. */
export function errorAnswer(error: AppError): IngestAnswer {
  const answer = jsonAnswer(httpStatusOf(error.code), errorBody(error));
  if (error.retryAfterSeconds !== null) answer.headers["Retry-After"] = String(error.retryAfterSeconds);
  // SDKs read X-Sentry-Rate-Limits before Retry-After; an empty category list means every category.
  if (error.code === "rate_limited") {
    answer.headers["X-Sentry-Rate-Limits"] = error instanceof RateLimitedError ? error.rateLimits : `${error.retryAfterSeconds ?? 60}::organization`;
  }
  // Header values must be printable ASCII; the body carries the exact text.
  answer.headers["X-Sentry-Error"] = error.message.replace(/[^\x20-\x7e]/g, "?");
  return answer;
}

export function sendIngestError(res: ServerResponse, error: AppError): void {
  writeAnswer(res, errorAnswer(error));
}

async function receive(
  head: IngestRequestHead,
  route: IngestRoute,
  readBody: () => Promise<Buffer>,
  deps: IngestDeps,
  admitted: { credentials: Credentials | null } | undefined,
): Promise<IngestJob> {
  const requestCredentials = admitted ? admitted.credentials : await admitIngest(head, route, deps);
  const body = await readBody();
  if (body.length === 0) throw new AppError("bad_request", "empty request body");

  // Without request auth the envelope header must authenticate before its framing is judged (401 before 400).
  const credentials = requestCredentials ?? credentialsFromEnvelopeHeader(readEnvelopeHeader(body)).credentials;
  const asEnvelope =
    route.endpoint === "envelope" || (head.headers["content-type"] ?? "").startsWith("application/x-sentry-envelope");
  const envelope = asEnvelope ? parseEnvelope(body, deps.config.limits.maxEnvelopeItems) : null;
  if (envelope && requestCredentials) checkHeaderDsn(envelope, requestCredentials, route);
  return acceptAuthenticated(head.client, body, envelope, credentials, { projectId: route.projectId, origin: requestOrigin(head.headers) }, deps);
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

/** Every ingest answer carries CORS headers, so browser SDKs can read it. */
function jsonAnswer(status: number, body: unknown): IngestAnswer {
  const json = JSON.stringify(body);
  return { status, headers: corsHeadersWith({ "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) }), body: json };
}

function writeAnswer(res: ServerResponse, answer: IngestAnswer): void {
  res.writeHead(answer.status, answer.headers).end(answer.body);
}
