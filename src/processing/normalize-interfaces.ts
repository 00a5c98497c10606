/**
 * The smaller event interfaces (message, breadcrumbs, user, request, contexts, sdk, ...), each reduced
 * to the one form `NormalizedEvent` allows. Schema: https://getsentry.github.io/relay/relay_event_schema/protocol/
 */
import { isIP } from "node:net";
import { EVENT_LIMITS } from "./limits";
import { LEVELS, type Breadcrumb, type EventRequest, type EventUser, type Level, type LogEntry, type SdkInfo } from "./types";
import {
  bagBudget,
  clip,
  compact,
  databag,
  isObject,
  noteBag,
  Notes,
  objectBag,
  setOwn,
  stringOf,
  textField,
  timestampOf,
  valuesOf,
  type JsonObject,
} from "./normalize-values";

const MAX_MESSAGE = 8192;
const MAX_BREADCRUMBS = EVENT_LIMITS.breadcrumbs;

/** Relay's level parser: the five levels plus the aliases SDKs and logging libraries send. */
const LEVEL_ALIASES: Record<string, Level> = { warn: "warning", critical: "fatal", log: "info" };

export function levelOf(raw: unknown): Level | undefined {
  if (typeof raw !== "string") return undefined;
  const name = raw.trim().toLowerCase();
  return (LEVELS as readonly string[]).includes(name) ? (name as Level) : Object.hasOwn(LEVEL_ALIASES, name) ? LEVEL_ALIASES[name] : undefined;
}

/** `message`/`logentry`: a plain string or `{message, params, formatted}`; `logentry` wins, as in Relay. */
export function logEntryOf(raw: JsonObject, notes: Notes): LogEntry | undefined {
  const source = raw.logentry ?? raw.message;
  if (source === undefined || source === null) return undefined;
  const name = raw.logentry !== undefined && raw.logentry !== null ? "logentry" : "message";
  const text = stringOf(source);
  if (text !== undefined) return text.trim() === "" ? undefined : { message: clip(text, MAX_MESSAGE), formatted: clip(text, MAX_MESSAGE) };
  if (!isObject(source)) {
    notes.add("invalid_data", name);
    return undefined;
  }
  const params = Array.isArray(source.params) && source.params.length > 0 ? (databag(source.params) as unknown[]) : undefined;
  const template = stringOf(source.message);
  const formatted = stringOf(source.formatted) ?? (template !== undefined && params ? format(template, params) : template);
  if (formatted === undefined || formatted.trim() === "") {
    notes.add("invalid_data", name);
    return undefined;
  }
  return compact<LogEntry>({
    message: clip(template ?? formatted, MAX_MESSAGE),
    params,
    formatted: clip(formatted, MAX_MESSAGE),
  });
}

/** printf-style substitution as SDKs mean it (`%s`, `%d`, ...); `%%` is a literal percent. */
function format(template: string, params: unknown[]): string {
  let next = 0;
  return template.replace(/%[sdifr%]/g, (token) => {
    if (token === "%%") return "%";
    if (next >= params.length) return token;
    const param = params[next++];
    return typeof param === "string" ? param : JSON.stringify(param);
  });
}

/**
 * Breadcrumbs keep the last 100 (the ones nearest the event). Timestamps get the same clock-drift
 * shift as the event so the timeline stays aligned; missing ones take the event's time.
 */
export function breadcrumbsOf(raw: unknown, eventTimestamp: number, drift: number, notes: Notes): Breadcrumb[] {
  const values = valuesOf(raw, "breadcrumbs", notes);
  const out: Breadcrumb[] = [];
  const skipped = Math.max(0, values.length - MAX_BREADCRUMBS);
  notes.trim("breadcrumbs", skipped);
  values.slice(skipped).forEach((item, index) => {
    const path = `breadcrumbs.values.${skipped + index}`;
    if (!isObject(item)) {
      notes.add("invalid_data", path);
      return;
    }
    const timestamp = timestampOf(item.timestamp);
    out.push(
      compact<Breadcrumb>({
        timestamp: timestamp === undefined ? eventTimestamp : timestamp + drift,
        type: textField(item.type, 64, `${path}.type`, notes),
        category: textField(item.category, 128, `${path}.category`, notes),
        message: textField(item.message, MAX_MESSAGE, `${path}.message`, notes),
        level: levelOf(item.level),
        data: objectBag(item.data, `${path}.data`, notes),
      }),
    );
  });
  return out;
}

/**
 * `inferIp` is the SDK's `sdk.settings.infer_ip === "auto"` (set with `sendDefaultPii`): Relay then
 * fills a missing `ip_address` with the client address, as it does for an explicit `{{auto}}`.
 */
export function userOf(raw: unknown, clientIp: string | undefined, inferIp: boolean, notes: Notes): EventUser | undefined {
  if (raw === undefined || raw === null) return inferIp && clientIp ? userOf({}, clientIp, inferIp, notes) : undefined;
  if (!isObject(raw)) {
    notes.add("invalid_data", "user");
    return undefined;
  }
  const user = compact<EventUser>({
    id: textField(raw.id, 128, "user.id", notes),
    email: textField(raw.email, 256, "user.email", notes),
    username: textField(raw.username, 128, "user.username", notes),
    ip_address: ipOf(raw.ip_address ?? (inferIp ? "{{auto}}" : undefined), clientIp, notes),
    name: textField(raw.name, 128, "user.name", notes),
    geo: objectBag(raw.geo, "user.geo", notes),
    data: objectBag(raw.data, "user.data", notes),
  });
  return Object.keys(user).length > 0 ? user : undefined;
}

/** `{{auto}}` asks the server to use the address the event came from (browser SDKs cannot know it). */
function ipOf(raw: unknown, clientIp: string | undefined, notes: Notes): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = typeof raw === "string" ? raw.trim() : "";
  const ip = text === "{{auto}}" ? clientIp : text;
  if (ip !== undefined && isIP(ip) !== 0) return ip;
  if (text !== "{{auto}}") notes.add("invalid_data", "user.ip_address", raw);
  return undefined;
}

export function requestOf(raw: unknown, notes: Notes): EventRequest | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) {
    notes.add("invalid_data", "request");
    return undefined;
  }
  const allHeaders = pairsOf(raw.headers);
  const headers = allHeaders?.slice(0, EVENT_LIMITS.headers);
  if (allHeaders && headers) notes.trim("request.headers", allHeaders.length - headers.length);
  const request = compact<EventRequest>({
    url: textField(raw.url, 2048, "request.url", notes),
    method: textField(raw.method, 32, "request.method", notes)?.toUpperCase(),
    headers: headers && headers.length > 0 ? headers : undefined,
    query_string: typeof raw.query_string === "string" ? clip(raw.query_string, MAX_MESSAGE) : joinPairs(raw.query_string, (pairs) => new URLSearchParams(pairs).toString()),
    data: raw.data === undefined || raw.data === null ? undefined : noteBag(raw.data, "request.data", notes),
    cookies: typeof raw.cookies === "string" ? clip(raw.cookies, MAX_MESSAGE) : joinPairs(raw.cookies, (pairs) => pairs.map(([key, value]) => `${key}=${value}`).join("; ")),
    env: objectBag(raw.env, "request.env", notes),
  });
  return Object.keys(request).length > 0 ? request : undefined;
}

/** An object or a list of pairs → string pairs; entries whose value is not a scalar are dropped. */
export function pairsOf(raw: unknown): [string, string][] | undefined {
  const entries = isObject(raw) ? Object.entries(raw) : Array.isArray(raw) ? raw.filter((entry) => Array.isArray(entry)) : undefined;
  if (!entries) return undefined;
  const out: [string, string][] = [];
  for (const entry of entries) {
    const key = stringOf(entry[0]);
    const value = stringOf(entry[1]);
    if (key !== undefined && value !== undefined) out.push([key, value]);
  }
  return out;
}

/** Query strings and cookies may arrive as objects or pairs; storage keeps their string form. */
function joinPairs(raw: unknown, join: (pairs: [string, string][]) => string): string | undefined {
  const pairs = pairsOf(raw);
  return pairs && pairs.length > 0 ? clip(join(pairs), MAX_MESSAGE) : undefined;
}

/** Only object-valued contexts are meaningful (`os`, `browser`, `trace`, ...). */
export function contextsOf(raw: unknown, notes: Notes): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  if (raw === undefined || raw === null) return out;
  if (!isObject(raw)) {
    notes.add("invalid_data", "contexts");
    return out;
  }
  const keys = Object.keys(raw);
  const count = Math.min(keys.length, EVENT_LIMITS.contexts);
  // One byte budget for all contexts together: each is a table on the page.
  const budget = bagBudget();
  for (let i = 0; i < count; i++) {
    const key = keys[i]!;
    const context = objectBag(raw[key], `contexts.${key}`, notes, budget);
    if (context) setOwn(out, key, context);
  }
  notes.trim("contexts", keys.length - count);
  return out;
}

export function sdkOf(raw: unknown, notes: Notes): SdkInfo | undefined {
  if (raw === undefined || raw === null) return undefined;
  const name = isObject(raw) ? stringOf(raw.name) : undefined;
  const version = isObject(raw) ? stringOf(raw.version) : undefined;
  if (!isObject(raw) || name === undefined || version === undefined) {
    notes.add("invalid_data", "sdk");
    return undefined;
  }
  const integrations = Array.isArray(raw.integrations) ? raw.integrations.filter((item) => typeof item === "string") : undefined;
  const packages = Array.isArray(raw.packages)
    ? raw.packages.flatMap((item) =>
        isObject(item) && typeof item.name === "string" && typeof item.version === "string"
          ? [{ name: item.name, version: item.version }]
          : [],
      )
    : undefined;
  return compact<SdkInfo>({ name: clip(name, 128), version: clip(version, 128), integrations, packages });
}

/** Fingerprint entries are strings; other entries are stringified rather than losing the grouping intent. */
export function fingerprintOf(raw: unknown, notes: Notes): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) {
    notes.add("invalid_data", "fingerprint");
    return undefined;
  }
  // databag first: JSON.stringify of an entry nested thousands deep would overflow the stack.
  const out = raw.map((item) => clip(stringOf(item) ?? JSON.stringify(databag(item)) ?? String(item), 512));
  return out.length > 0 ? out : undefined;
}

export function modulesOf(raw: unknown): Record<string, string> | undefined {
  if (!isObject(raw)) return undefined;
  // Node SDKs list every loaded package (hundreds): copy once and fix the rare non-string version in
  // place, instead of building a pair per module twice. Spreading keeps a "__proto__" key as data.
  const modules: JsonObject = { ...raw };
  let count = 0;
  for (const name of Object.keys(modules)) {
    const version = modules[name];
    if (typeof version === "string") count++;
    else {
      const text = stringOf(version);
      if (text === undefined) delete modules[name];
      else {
        modules[name] = text;
        count++;
      }
    }
  }
  return count > 0 ? (modules as Record<string, string>) : undefined;
}
