/**
 * Readers shared by the session, transaction and span item modules. Like the event normaliser they
 * take untrusted JSON (`unknown`) and return a clean value or `undefined`, never throwing.
 */
import type { EnvelopeItem } from "../ingest/envelope";
import { isObject, naturalOf, timestampOf, type JsonObject } from "../processing/normalize-values";
import type { ItemContext } from "./types";

export { isObject, naturalOf, timestampOf, type JsonObject };

/** The payload as a JSON object, or undefined when it is not JSON or not an object. */
export function jsonObjectOf(item: EnvelopeItem): JsonObject | undefined {
  return jsonObjectOfText(item.payload.toString("utf8"));
}

/** The same for text already decoded (an event's, which is also stored; a span container's). */
export function jsonObjectOfText(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const LOWER_HEX = { 16: /^[0-9a-f]{16}$/, 32: /^[0-9a-f]{32}$/ } as const;

/** Lower-case hex id of `length` digits; UUIDs may carry dashes (trace ids, session ids). */
export function hexIdOf(value: unknown, length: 16 | 32): string | undefined {
  if (typeof value !== "string") return undefined;
  const form = LOWER_HEX[length];
  // SDKs send ids in this form: one test then, instead of four string copies first.
  if (form.test(value)) return value;
  const id = value.trim().toLowerCase().replaceAll("-", "");
  return form.test(id) ? id : undefined;
}

/** A non-empty trimmed string, or undefined. */
export function textOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text === "" ? undefined : text;
}

/**
 * Relay's release rule (`validate_release`, docs/protocol.md §8.4): not empty, no newline,
 * tab, slash or backslash, not `.`, `..`, a single space or `latest`, at most 200 characters.
 */
export function isValidRelease(release: string): boolean {
  return (
    release.length > 0 && release.length <= 200 && !/[\r\n\t/\\]/.test(release) && ![".", "..", " ", "latest"].includes(release)
  );
}

/** Relay's environment rule: at most 64 characters, no newline, form feed or slash. */
export function environmentOf(value: unknown): string | null {
  const environment = textOf(value);
  return environment !== undefined && environment.length <= 64 && !/[\r\n\f/\\]/.test(environment) ? environment : null;
}

/** Relay corrects the client's clock only when it is off by at least 55 minutes (MINIMUM_CLOCK_DRIFT). */
const MINIMUM_CLOCK_DRIFT_SECS = 55 * 60;

/**
 * Seconds to add to the client's timestamps: the difference between receive time and the envelope's
 * `sent_at`, when it is large enough to be a wrong clock rather than transport delay; else 0.
 */
export function clockDriftOf(context: ItemContext): number {
  const sentAt = context.envelopeHeaders.sent_at;
  const sent = typeof sentAt === "string" ? timestampOf(sentAt) : undefined;
  if (sent === undefined) return 0;
  const drift = context.receivedAt / 1000 - sent;
  return Math.abs(drift) >= MINIMUM_CLOCK_DRIFT_SECS ? drift : 0;
}

/** Relay's `max_secs_in_future`. */
export const MAX_SECS_IN_FUTURE = 60;
