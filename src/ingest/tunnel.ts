/**
 * `POST /monitoring?o=<organisation id>&p=<project id>[&r=<region>]` — the same-origin tunnel that
 * Periscope's own UI sends its monitoring envelopes through (the query shape of @sentry/nextjs's
 * tunnelRoute, docs/protocol.md §11.2), so ad blockers and CSP never see a third-party host.
 *
 * The envelope header's `dsn` is the only credential. Where the envelope goes is decided by config,
 * never by the request: this server's own region (or no `r`) → ingested here; another region listed
 * in REGIONS → forwarded to that region's configured base URL; the configured upstream self-monitoring
 * DSN → forwarded to that DSN's host. Everything else is refused, so the tunnel is not an open proxy.
 */
import type { IncomingMessage } from "node:http";
import { AppError } from "../errors";
import { acceptAuthenticated, type IngestClient, type IngestDeps } from "./accept";
import { parseDsn, type Credentials, type Dsn } from "./auth";
import { readBody } from "./body";
import type { BufferLease } from "./budget";
import { parseEnvelope, readEnvelopeHeader } from "./envelope";
import type { IngestJob } from "./sink";
import { scrubInviteSecretsInEnvelope } from "../monitoring/scrub-secrets";
import type { IngestRoute } from "./route";

export type TunnelResult =
  | { kind: "local"; job: IngestJob }
  | { kind: "forwarded"; status: number; headers: Record<string, string>; body: Buffer };

interface TunnelTarget {
  o: string;
  p: string;
  r: string | null;
}

const NUMERIC_ID = /^\d{1,19}$/;
const REGION = /^[a-z0-9-]{1,32}$/;
const FORWARD_TIMEOUT_MS = 10_000;
const MAX_UPSTREAM_BODY = 64 * 1024;
const RELAYED_HEADERS = ["retry-after", "x-sentry-rate-limits"];

function single(query: URLSearchParams, name: string, pattern: RegExp, what: string): string | null {
  const values = query.getAll(name);
  if (values.length === 0) return null;
  if (values.length > 1) throw new AppError("bad_request", `invalid tunnel URL: '${name}' is given ${values.length} times`);
  if (!pattern.test(values[0]!)) throw new AppError("bad_request", `invalid tunnel URL: '${name}' must be ${what}`);
  return values[0]!;
}

function targetOf(query: URLSearchParams): TunnelTarget {
  const o = single(query, "o", NUMERIC_ID, "a numeric organization id");
  const p = single(query, "p", NUMERIC_ID, "a numeric project id");
  if (o === null || p === null) throw new AppError("bad_request", "invalid tunnel URL: both 'o' and 'p' are required");
  return { o, p, r: single(query, "r", REGION, "a region name (lower-case letters, digits, '-')") };
}

function dsnOf(header: Record<string, unknown> | null): { raw: string; dsn: Dsn } {
  if (!header) throw new AppError("bad_request", "invalid envelope: the first line must be the envelope header (a JSON object)");
  if (typeof header.dsn !== "string") throw new AppError("bad_request", "invalid envelope: missing DSN in the envelope header");
  const dsn = parseDsn(header.dsn);
  if (!dsn) throw new AppError("bad_request", "invalid envelope: the DSN in the envelope header is malformed");
  return { raw: header.dsn, dsn };
}

/** host[:port] as URL.host prints it, for comparing a DSN with a configured base URL. */
function hostOf(dsn: Dsn): string {
  return new URL(`${dsn.protocol}://${dsn.host}${dsn.port === null ? "" : `:${dsn.port}`}`).host;
}

export async function tunnel(req: IncomingMessage, client: IngestClient, route: IngestRoute, deps: IngestDeps, lease: BufferLease | null = null): Promise<TunnelResult> {
  const target = targetOf(route.query);
  const body = scrubInviteSecretsInEnvelope(await readBody(req, deps.config.limits, lease));
  if (body.length === 0) throw new AppError("bad_request", "empty request body");
  const { raw, dsn } = dsnOf(readEnvelopeHeader(body));
  if (dsn.projectId !== target.p) {
    throw new AppError("bad_request", `invalid tunnel URL: p=${target.p} does not match the envelope DSN's project ${dsn.projectId}`);
  }

  const self = deps.config.selfMonitoring;
  if (self.mode === "upstream" && raw === self.dsn) {
    if (target.o !== self.organizationId) {
      throw new AppError("forbidden", `DSN not allowed: o=${target.o} is not the upstream organization`);
    }
    const upstream = parseDsn(self.dsn)!;
    const base = `${upstream.protocol}://${hostOf(upstream)}${upstream.pathPrefix}`;
    return forward(`${base}/api/${upstream.projectId}/envelope/?sentry_key=${upstream.publicKey}&sentry_version=7`, body);
  }

  if (target.r !== null && target.r !== deps.config.region) {
    // hasOwn: `r=constructor` passes the name pattern and must not find Object.prototype's property.
    const base = Object.hasOwn(deps.config.regions, target.r) ? deps.config.regions[target.r] : undefined;
    if (!base) throw new AppError("bad_request", `unknown region "${target.r}": this server forwards only to ${listRegions(deps)}`);
    if (hostOf(dsn) !== new URL(base).host) {
      throw new AppError("forbidden", `DSN not allowed: it names host ${hostOf(dsn)}, not region "${target.r}" (${new URL(base).host})`);
    }
    return forward(`${base}/api/${target.p}/envelope/`, body);
  }

  const ownHost = new URL(deps.publicUrl).host;
  if (hostOf(dsn) !== ownHost) {
    throw new AppError("forbidden", `DSN not allowed: it names host ${hostOf(dsn)}, but this server is ${ownHost}`);
  }
  const credentials: Credentials = { publicKey: dsn.publicKey, version: 7, client: null, source: "envelope" };
  const job = await acceptAuthenticated(client, body, parseEnvelope(body, deps.config.limits.maxEnvelopeItems), credentials, { projectId: target.p, organizationId: target.o }, deps);
  return { kind: "local", job };
}

function listRegions(deps: IngestDeps): string {
  const names = Object.keys(deps.config.regions);
  return names.length > 0 ? names.map((name) => `"${name}"`).join(", ") : "no other region (REGIONS is empty)";
}

/**
 * Posts the same bytes to a URL that came from config, and relays the answer the SDK needs: status,
 * rate-limit headers and a JSON body. Any other body is dropped and the type is always ours, so an
 * upstream (or whatever answers at its address) cannot serve HTML on this origin.
 */
async function forward(url: string, body: Buffer): Promise<TunnelResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      body: new Uint8Array(body),
      headers: { "Content-Type": "application/x-sentry-envelope" },
      redirect: "manual",
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
  } catch (error) {
    throw new AppError("bad_gateway", `could not forward the envelope: ${new URL(url).host} did not answer`, [String(error)]);
  }
  const headers: Record<string, string> = { "content-type": "application/json", "x-content-type-options": "nosniff" };
  for (const name of RELAYED_HEADERS) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const upstreamBody = Buffer.from(await response.arrayBuffer());
  return { kind: "forwarded", status: response.status, headers, body: jsonBodyOf(response.headers.get("content-type"), upstreamBody) };
}

/** The upstream's body when it is a JSON document within the size bound, else an empty object. */
function jsonBodyOf(contentType: string | null, body: Buffer): Buffer {
  const empty = Buffer.from("{}");
  if (body.length > MAX_UPSTREAM_BODY || !/^application\/json\b/i.test(contentType ?? "")) return empty;
  try {
    JSON.parse(body.toString("utf8"));
    return body;
  } catch {
    return empty;
  }
}
