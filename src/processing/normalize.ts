/**
 * Event normalisation: turns an SDK `event` item payload into a `NormalizedEvent`, following Relay's
 * store normalisation (`relay-event-normalization`): only a payload that is not a JSON object is
 * refused; every other problem is corrected, trimmed or dropped and recorded in `errors`.
 * Payload reference: docs/protocol.md §8.1.
 */
import { randomUUID } from "node:crypto";
import { AppError } from "../errors";
import type { FilterView, IndexedEvent, Level, NormalizedEvent } from "./types";
import { normalizeExceptions } from "./normalize-exception";
import {
  breadcrumbsOf,
  contextsOf,
  fingerprintOf,
  levelOf,
  logEntryOf,
  modulesOf,
  requestOf,
  sdkOf,
  userOf,
} from "./normalize-interfaces";
import { tagsOf, userKey, withDerivedTags } from "./normalize-tags";
import { compact, isObject, Notes, objectBag, textField, timestampOf, type JsonObject } from "./normalize-values";

export interface NormalizeContext {
  /** Unix milliseconds. */
  receivedAt: number;
  /** Envelope header `sent_at`. */
  sentAt?: string;
  envelopeEventId?: string;
  /** The id an earlier normalisation of this payload made up (stored-event.ts), used instead of a new random one. */
  madeUpEventId?: string;
  clientIp?: string;
  userAgent?: string;
  /** The level of an event that names none ("error" unless said; a transaction's is "info"). */
  defaultLevel?: Level;
}

/** Relay's `max_secs_in_future` and `max_secs_in_past`. */
const MAX_SECS_IN_FUTURE = 60;
const MAX_SECS_IN_PAST = 30 * 24 * 3600;

export function normalizeEvent(raw: unknown, ctx: NormalizeContext): NormalizedEvent {
  return normalize(raw, ctx, true) as NormalizedEvent;
}

/**
 * What ingest needs to group, tag and count the event: the same normalisation without the
 * display-only parts (breadcrumbs, modules, extra, the list of corrections), because ingest stores
 * the SDK's payload and it is normalised in full when read (stored-event.ts, ADR 0005).
 */
export function indexedEventOf(raw: unknown, ctx: NormalizeContext): IndexedEvent {
  return normalize(raw, ctx, false);
}

/**
 * What inbound filters read (src/ingest/inbound-filters.ts), normalised as indexedEventOf would, but
 * read from the item before it is scrubbed (Relay filters before it scrubs): with "scrub IP
 * addresses" on, `user.ip_address` is still there, and a message glob sees the SDK's own text.
 * `clientIp` is the connection's address (`{{auto}}`). Transactions carry no exception or message
 * for the error-only filters (`errors: false`).
 */
export function filterViewOf(raw: JsonObject, clientIp: string | undefined, errors: boolean): FilterView {
  const notes = new Notes();
  return {
    release: releaseOf(raw.release, notes),
    logentry: errors ? logEntryOf(raw, notes) : undefined,
    user: userOf(raw.user, clientIp, inferIpOf(raw.sdk), notes),
    request: requestOf(raw.request, notes),
    exception: errors ? filterExceptionsOf(raw.exception, notes) : [],
  };
}

/**
 * Of each exception, what the filters read: its type and value (as normalisation keeps them) and its
 * top frame's paths. Normalising the whole interface would cost as much as indexing the event again
 * (≈ 16 µs for @sentry/node's error with a cause on a loaded machine; this ≈ 1 µs).
 */
function filterExceptionsOf(raw: unknown, notes: Notes): FilterView["exception"] {
  const list = isObject(raw) ? raw.values : raw;
  if (!Array.isArray(list)) return [];
  const out: FilterView["exception"] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const type = textField(item.type, 256, "type", notes);
    const value = textField(item.value, 8192, "value", notes);
    if (type === undefined && value === undefined) continue;
    const frames = isObject(item.stacktrace) ? item.stacktrace.frames : undefined;
    const top: unknown = Array.isArray(frames) ? frames[frames.length - 1] : undefined;
    const frame = isObject(top) ? compact({ abs_path: textField(top.abs_path, 1000, "abs_path", notes), filename: textField(top.filename, 1000, "filename", notes) }) : undefined;
    out.push(compact({ type, value, stacktrace: frame ? { frames: [frame] } : undefined }));
  }
  return out;
}

/** One function for both, so the indexed fields and the notes' order are the same in each. */
function normalize(raw: unknown, ctx: NormalizeContext, full: boolean): IndexedEvent {
  if (!isObject(raw)) throw new AppError("bad_request", "event payload must be a JSON object");
  const notes = new Notes();
  const received = ctx.receivedAt / 1000;
  const { timestamp, drift } = eventTime(raw.timestamp, received, ctx.sentAt, notes);
  const request = requestOf(raw.request, notes);
  const sdkTags = tagsOf(raw.tags, notes);
  const event: Omit<IndexedEvent, "tags"> = compact({
    event_id: eventIdOf(ctx.envelopeEventId, raw.event_id, notes) ?? ctx.madeUpEventId ?? randomUUID().replaceAll("-", ""),
    timestamp,
    received,
    platform: platformOf(raw.platform, notes),
    level: eventLevel(raw.level, ctx.defaultLevel ?? "error", notes),
    environment: environmentOf(raw.environment, notes),
    logger: textField(raw.logger, 64, "logger", notes),
    transaction: textField(raw.transaction, 200, "transaction", notes),
    server_name: textField(raw.server_name, 200, "server_name", notes),
    release: releaseOf(raw.release, notes),
    dist: textField(raw.dist, 64, "dist", notes),
    logentry: logEntryOf(raw, notes),
    contexts: contextsOf(raw.contexts, notes),
    user: userOf(raw.user, ctx.clientIp, inferIpOf(raw.sdk), notes),
    request,
    breadcrumbs: full ? breadcrumbsOf(raw.breadcrumbs, timestamp, drift, notes) : undefined,
    exception: normalizeExceptions(raw.exception, notes),
    fingerprint: fingerprintOf(raw.fingerprint, notes),
    sdk: sdkOf(raw.sdk, notes),
    extra: full ? objectBag(raw.extra, "extra", notes) : undefined,
    modules: full ? modulesOf(raw.modules) : undefined,
    errors: full ? notes.list : undefined,
  });
  // Read after every part above was normalised: each may have cut something.
  if (full && Object.keys(notes.trimmed).length > 0) Object.assign(event, { trimmed: notes.trimmed });
  if (full && isObject(raw._meta)) Object.assign(event, { _meta: raw._meta });
  const userAgent = ownUserAgentOf(request) ?? ctx.userAgent;
  // Added to the object `compact` made, not `{ ...event, tags }`: a spread given more properties gets
  // a hidden class of its own per event in Node 20's V8 (src/ingest/cors.ts, corsHeadersWith).
  return Object.assign(event, { tags: withDerivedTags(event, sdkTags, userAgent) });
}

/** The User-Agent the event's own request headers carry; the HTTP request's is used only without one. */
export function ownUserAgentOf(request: IndexedEvent["request"]): string | undefined {
  return request?.headers?.find(([name]) => name.toLowerCase() === "user-agent")?.[1];
}

export function userKeyOf(event: IndexedEvent): string | null {
  return userKey(event.user);
}

function inferIpOf(sdk: unknown): boolean {
  return isObject(sdk) && isObject(sdk.settings) && sdk.settings.infer_ip === "auto";
}

const HEX_ID = /^[0-9a-f]{32}$/;
const DASHED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The envelope header's id wins (it is what the SDK reported back to the app); dashed UUIDs are
 * accepted. Undefined when neither is valid: the caller makes one up.
 */
function eventIdOf(envelopeId: string | undefined, payloadId: unknown, notes: Notes): string | undefined {
  for (const candidate of [envelopeId, payloadId]) {
    if (typeof candidate !== "string") continue;
    const id = candidate.trim().toLowerCase();
    if (HEX_ID.test(id) || DASHED_UUID.test(id)) return id.replaceAll("-", "");
  }
  if (payloadId !== undefined && payloadId !== null) notes.add("invalid_data", "event_id", payloadId);
  return undefined;
}

/**
 * The client's clock may be wrong: shift by the difference between the envelope's `sent_at` and
 * the receive time, then replace timestamps still too far in the future or past (Relay's
 * clock-drift and timestamp normalisation). `drift` is reused for breadcrumbs.
 */
function eventTime(raw: unknown, received: number, sentAt: string | undefined, notes: Notes): { timestamp: number; drift: number } {
  const sent = sentAt === undefined ? undefined : timestampOf(sentAt);
  const drift = sent === undefined ? 0 : received - sent;
  if (raw === undefined || raw === null) return { timestamp: received, drift };
  const parsed = timestampOf(raw);
  if (parsed === undefined) {
    notes.add("invalid_data", "timestamp", raw);
    return { timestamp: received, drift };
  }
  const timestamp = parsed + drift;
  if (timestamp > received + MAX_SECS_IN_FUTURE) {
    notes.add("future_timestamp", "timestamp", parsed);
    return { timestamp: received, drift };
  }
  if (timestamp < received - MAX_SECS_IN_PAST) {
    notes.add("past_timestamp", "timestamp", parsed);
    return { timestamp: received, drift };
  }
  return { timestamp, drift };
}

function eventLevel(raw: unknown, fallback: Level, notes: Notes): Level {
  if (raw === undefined || raw === null) return fallback;
  const level = levelOf(raw);
  if (level === undefined) notes.add("invalid_data", "level", raw);
  return level ?? "error";
}

/** Relay keeps unknown platforms as "other"; an identifier-like string is all we require. */
function platformOf(raw: unknown, notes: Notes): string {
  if (raw === undefined || raw === null) return "other";
  const platform = typeof raw === "string" ? raw.trim().toLowerCase() : "";
  if (/^[a-z0-9_.-]{1,64}$/.test(platform)) return platform;
  notes.add("invalid_data", "platform", raw);
  return "other";
}

/** Relay's environment rule: no newlines or slashes, at most 64 chars. */
function environmentOf(raw: unknown, notes: Notes): string {
  const environment = textField(raw, 1000, "environment", notes);
  if (environment === undefined) return "production";
  if (environment.length <= 64 && !/[\r\n\f/\\]/.test(environment)) return environment;
  notes.add("invalid_data", "environment", environment);
  return "production";
}

/** Relay's release rule (as for sessions, §8.4): invalid names are dropped, not trimmed. */
function releaseOf(raw: unknown, notes: Notes): string | undefined {
  const release = textField(raw, 1000, "release", notes);
  if (release === undefined) return undefined;
  const invalid = release.length > 200 || /[\r\n\t/\\]/.test(release) || [".", "..", "latest"].includes(release);
  if (!invalid) return release;
  notes.add("invalid_data", "release", release);
  return undefined;
}
