/**
 * Tags: the SDK's own (object or list of pairs) plus the ones Sentry derives from the event so they
 * can be searched and counted the same way (`level`, `release`, `browser`, `handled`, `user`, ...).
 * SDK tags win over derived ones with the same key; the result is sorted by key, as Sentry lists them.
 */
import type { EventUser, IndexedEvent } from "./types";
import { browserFromUserAgent, osFromUserAgent, type NamedVersion } from "./normalize-useragent";
import { EVENT_LIMITS } from "./limits";
import { clip, isObject, Notes, stringOf } from "./normalize-values";

const MAX_TAG_KEY = EVENT_LIMITS.tagKeyChars;
const MAX_TAG_VALUE = EVENT_LIMITS.tagValueChars;

export function tagsOf(raw: unknown, notes: Notes): [string, string][] {
  if (raw === undefined || raw === null) return [];
  const entries = isObject(raw) ? Object.entries(raw) : Array.isArray(raw) ? raw : undefined;
  if (!entries) {
    notes.add("invalid_data", "tags");
    return [];
  }
  const out = new Map<string, string>();
  // Stops at the limit: the entries not looked at are counted as cut (duplicates and invalid ones too).
  let index = 0;
  for (; index < entries.length && out.size < EVENT_LIMITS.tags; index++) {
    const entry: unknown = entries[index];
    const [rawKey, rawValue]: unknown[] = Array.isArray(entry) ? entry : [];
    const key = stringOf(rawKey)?.trim();
    const value = stringOf(rawValue)?.trim();
    const name = `tags.${key || index}`;
    if (!key || value === undefined || value === "") notes.add("invalid_data", name);
    else if (key.length > MAX_TAG_KEY) notes.add("value_too_long", "tags", key);
    else if (value.length > MAX_TAG_VALUE) notes.add("value_too_long", name, value);
    else if (!out.has(key)) out.set(key, value);
  }
  notes.trim("tags", entries.length - index);
  return [...out];
}

type EventWithoutTags = Omit<IndexedEvent, "tags">;

/** SDK tags plus derived tags; `userAgent` is the request's (or envelope sender's) User-Agent, if any. */
export function withDerivedTags(event: EventWithoutTags, sdkTags: [string, string][], userAgent: string | undefined): [string, string][] {
  const tags = new Map(sdkTags);
  for (const [key, value] of derivedTags(event, userAgent)) {
    const text = value?.trim();
    if (text && !tags.has(key)) tags.set(key, clip(text, MAX_TAG_VALUE));
  }
  return [...tags].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function derivedTags(event: EventWithoutTags, userAgent: string | undefined): [string, string | undefined][] {
  const { contexts } = event;
  const browser = namedContext(contexts.browser) ?? (userAgent ? browserFromUserAgent(userAgent) : undefined);
  const os = namedContext(contexts.os) ?? (userAgent ? osFromUserAgent(userAgent) : undefined);
  const runtime = namedContext(contexts.runtime);
  const thrown = event.exception.at(-1)?.mechanism;
  return [
    ["level", event.level],
    ["environment", event.environment],
    ["release", event.release],
    ["dist", event.dist],
    ["logger", event.logger],
    ["server_name", event.server_name],
    ["transaction", event.transaction],
    // Sentry's `url` tag is the address without query or fragment, so it stays groupable.
    ["url", event.request?.url?.split(/[?#]/)[0]],
    ["browser", displayName(browser)],
    ["browser.name", browser?.name],
    ["os", displayName(os)],
    ["os.name", os?.name],
    ["runtime", displayName(runtime)],
    ["runtime.name", runtime?.name],
    ["device", stringOf(contexts.device?.model)],
    ["handled", thrown?.handled === undefined ? undefined : thrown.handled ? "yes" : "no"],
    ["mechanism", thrown?.type],
    ["user", userKey(event.user) ?? undefined],
  ];
}

function namedContext(context: Record<string, unknown> | undefined): NamedVersion | undefined {
  const name = stringOf(context?.name)?.trim();
  if (!name) return undefined;
  // Node's os context reports "12.11\n" (read from /etc/debian_version): trim before display.
  const version = stringOf(context?.version)?.trim();
  return version ? { name, version } : { name };
}

function displayName(named: NamedVersion | undefined): string | undefined {
  return named && (named.version ? `${named.name} ${named.version}` : named.name);
}

/**
 * The issue-level keys `user.id`, `user.email`, `user.username`, `user.ip`: what the events' user
 * carried, field by field, so issue search's `user.email:` finds a user whose `user` tag holds the
 * id. Counted in issue_tags only (not event tags, not the issue page's tag list: Sentry shows neither).
 * Read from the indexed event, i.e. after scrubbing: a scrubbed IP address never becomes a value.
 */
export const USER_FIELD_TAG_KEYS: ReadonlySet<string> = new Set(["user.id", "user.email", "user.username", "user.ip"]);

/** The event's tags plus its user's fields under USER_FIELD_TAG_KEYS (an SDK tag of that key wins). */
export function counterTagsOf(event: { tags: readonly [string, string][]; user?: EventUser }): [string, string][] {
  const { user } = event;
  const tags = event.tags as [string, string][];
  if (!user) return tags;
  const extra: [string, string][] = [];
  const add = (key: string, value: string | undefined) => {
    const text = value?.trim();
    if (text && !tags.some(([existing]) => existing === key)) extra.push([key, clip(text, MAX_TAG_VALUE)]);
  };
  add("user.id", user.id);
  add("user.email", user.email);
  add("user.username", user.username);
  add("user.ip", user.ip_address);
  return extra.length === 0 ? tags : [...tags, ...extra];
}

/** Stable key for "users affected": the strongest identifier the event has. */
export function userKey(user: EventUser | undefined): string | null {
  if (!user) return null;
  if (user.id !== undefined) return `id:${user.id}`;
  if (user.email !== undefined) return `email:${user.email}`;
  if (user.username !== undefined) return `username:${user.username}`;
  if (user.ip_address !== undefined) return `ip:${user.ip_address}`;
  return null;
}
