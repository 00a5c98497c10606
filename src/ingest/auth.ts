/**
 * Where an ingest request's credentials come from (docs/protocol.md §2), in Relay's order
 * and with Relay's errors (`relay-server/src/extractors/request_meta.rs`, `relay-common` `Auth`):
 *
 *   1. `X-Sentry-Auth: Sentry sentry_key=…, sentry_version=7, sentry_client=…`
 *   2. `Authorization: Sentry …` (same grammar)
 *   3. `Authorization: Basic base64(public_key:anything)`
 *   4. `?sentry_key=…&sentry_version=…&sentry_client=…` (any query containing `sentry_`)
 *   6. the envelope header's `dsn`, only when none of the above is present (tunnels rely on it).
 *
 * Source 5 (key in the URL path) belongs to the unreal and cron routes, which parse it themselves.
 */
import type { IncomingHttpHeaders } from "node:http";
import { AppError } from "../errors";

export interface Credentials {
  publicKey: string;
  version: number;
  client: string | null;
  source: "x-sentry-auth" | "authorization" | "basic" | "query" | "envelope";
}

export interface Dsn {
  protocol: "http" | "https";
  publicKey: string;
  host: string;
  port: number | null;
  pathPrefix: string;
  projectId: string;
}

/** The newest protocol version this server speaks; SDKs send 7. */
const MAX_PROTOCOL_VERSION = 7;
const PUBLIC_KEY = /^[0-9a-f]{32}$/i;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** What one auth payload said, before the key and version are checked. */
interface Auth {
  key: string;
  version: number;
  client: string | null;
}

const badAuth = () => new AppError("unauthorized", "bad x-sentry-auth header");

/**
 * Relay's `Auth::from_pairs`: the last value of a key wins, unknown keys are ignored,
 * `sentry_version` counts only up to the first `.` (so `7.0` is 7) and must fit a u16, and a
 * missing or empty `sentry_key` is a bad header.
 */
function authFromPairs(pairs: Iterable<[string, string]>): Auth {
  const auth: Auth = { key: "", version: MAX_PROTOCOL_VERSION, client: null };
  for (const [key, value] of pairs) {
    if (key === "sentry_key") auth.key = value;
    else if (key === "sentry_client") auth.client = value;
    else if (key === "sentry_version") {
      const major = value.split(".")[0] ?? "";
      if (!/^\+?\d+$/.test(major) || Number(major) > 0xffff) throw badAuth();
      auth.version = Number(major);
    }
  }
  if (auth.key === "") throw badAuth();
  return auth;
}

/** `Sentry k=v, k=v`: split on `,`, each piece on `=`, trimming both sides; pieces without `=` are skipped. */
function parseSentryHeader(value: string): Auth {
  const pairs = value
    .slice("sentry ".length)
    .split(",")
    .filter((piece) => piece.includes("="))
    .map((piece): [string, string] => {
      const [key = "", value = ""] = piece.split("=");
      return [key.trim(), value.trim()];
    });
  return authFromPairs(pairs);
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** A header counts only when it starts with `sentry ` (any case); other values are ignored. */
function sentryScheme(value: string | undefined): string | null {
  return value !== undefined && value.slice(0, 7).toLowerCase() === "sentry " ? value : null;
}

/** `Basic base64(key:anything)`; anything undecodable, without `:` or with an empty key is ignored. */
function basicAuth(value: string | undefined): Auth | null {
  if (value === undefined || value.slice(0, 6).toLowerCase() !== "basic ") return null;
  const encoded = value.slice(6);
  if (!BASE64.test(encoded)) return null;
  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(encoded, "base64"));
  } catch {
    return null;
  }
  const colon = decoded.indexOf(":");
  if (colon <= 0) return null;
  return { key: decoded.slice(0, colon), version: MAX_PROTOCOL_VERSION, client: null };
}

function toCredentials(auth: Auth, source: Credentials["source"]): Credentials {
  if (!PUBLIC_KEY.test(auth.key)) throw new AppError("bad_request", "bad sentry DSN public key");
  if (auth.version > MAX_PROTOCOL_VERSION) {
    throw new AppError("bad_request", `unsupported protocol version (${auth.version})`);
  }
  return { publicKey: auth.key.toLowerCase(), version: auth.version, client: auth.client, source };
}

/**
 * Whether any name or value of the query contains `sentry_`: what its serialised form contains, since
 * serialising escapes none of those characters and `=` and `&` stand between the parts, read
 * without serialising it on every request.
 */
function mentionsSentry(query: URLSearchParams): boolean {
  for (const [name, value] of query) if (name.includes("sentry_") || value.includes("sentry_")) return true;
  return false;
}

/** Sources 1–4 of §2.1; null when none is present. Throws AppError: 401 "multiple authorization payloads detected", 401 "bad x-sentry-auth header", 400 "bad sentry DSN public key", 400 "unsupported protocol version (N)". */
export function extractRequestCredentials(headers: IncomingHttpHeaders, query: URLSearchParams): Credentials | null {
  const present: [Credentials["source"], () => Auth][] = [];
  const xSentryAuth = sentryScheme(headerValue(headers, "x-sentry-auth"));
  if (xSentryAuth !== null) present.push(["x-sentry-auth", () => parseSentryHeader(xSentryAuth)]);
  const authorization = headerValue(headers, "authorization");
  const sentryAuthorization = sentryScheme(authorization);
  if (sentryAuthorization !== null) present.push(["authorization", () => parseSentryHeader(sentryAuthorization)]);
  const basic = basicAuth(authorization);
  if (basic) present.push(["basic", () => basic]);
  if (mentionsSentry(query)) present.push(["query", () => authFromPairs(query.entries())]);
  const [first, second] = present;
  if (!first) return null;
  // Relay parses the first source it finds (so a bad one fails as such) before it notices a second.
  const auth = first[1]();
  if (second) throw new AppError("unauthorized", "multiple authorization payloads detected");
  return toCredentials(auth, first[0]);
}

/**
 * DSNs parsed before, by their text: SDKs put their DSN in every envelope's header, and one project
 * key's DSN repeats on every request, so the URL parser runs once per distinct DSN, not per request.
 * Bounded in count (emptied when full) and in length (a real DSN is ≈ 60–120 characters; a longer
 * one is parsed every time), so a client that sends a new DSN each time costs a parse, not memory.
 */
const parsedDsns = new Map<string, Readonly<Dsn> | null>();
const PARSED_DSNS_MAX = 1_000;
const CACHED_DSN_MAX_LENGTH = 512;

/** Parses a DSN string; null if malformed. The result is shared between callers: do not change it. */
export function parseDsn(dsn: string): Readonly<Dsn> | null {
  if (dsn.length > CACHED_DSN_MAX_LENGTH) return parseDsnText(dsn);
  let parsed = parsedDsns.get(dsn);
  if (parsed === undefined) {
    const fresh = parseDsnText(dsn);
    parsed = fresh === null ? null : Object.freeze(fresh);
    if (parsedDsns.size >= PARSED_DSNS_MAX) parsedDsns.clear();
    parsedDsns.set(dsn, parsed);
  }
  return parsed;
}

function parseDsnText(dsn: string): Dsn | null {
  const scheme = /^(https?):\/\//i.exec(dsn)?.[1]?.toLowerCase();
  if (scheme !== "http" && scheme !== "https") return null;
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  const match = /^(.*)\/(\d+)$/.exec(url.pathname);
  if (!match || url.search !== "" || url.hash !== "" || !PUBLIC_KEY.test(url.username)) return null;
  return {
    protocol: scheme,
    publicKey: url.username.toLowerCase(),
    host: url.hostname,
    port: url.port === "" ? null : Number(url.port),
    pathPrefix: match[1] ?? "",
    projectId: match[2] ?? "",
  };
}

/** Credentials from an envelope header's dsn (source 6). Throws 401 "missing authorization information" when header has no dsn, 401 "bad envelope authentication header" when the first line is not JSON, 401 for an unparsable dsn. Returns credentials plus the dsn's projectId. */
export function credentialsFromEnvelopeHeader(header: Record<string, unknown> | null): { credentials: Credentials; projectId: string } {
  const badEnvelopeAuth = new AppError("unauthorized", "bad envelope authentication header");
  if (header === null) throw badEnvelopeAuth;
  // Relay reads `dsn` as an optional field: absent or null is missing auth, anything else must parse.
  if (header.dsn === undefined || header.dsn === null) throw new AppError("unauthorized", "missing authorization information");
  const dsn = typeof header.dsn === "string" ? parseDsn(header.dsn) : null;
  if (!dsn) throw badEnvelopeAuth;
  const credentials: Credentials = { publicKey: dsn.publicKey, version: MAX_PROTOCOL_VERSION, client: null, source: "envelope" };
  return { credentials, projectId: dsn.projectId };
}
