/**
 * Grouping: which issue an event belongs to. Sentry's precedence (docs/protocol.md §9):
 * custom fingerprint → stack trace → exception type and value → message → fallback. The hash covers
 * the config family, the strategy and its components, so two strategies never collide.
 */
import { hash as digest } from "node:crypto";
import type { ExceptionValue, GroupingResult, IndexedEvent, IssueMetadata } from "./types";
import { cleanFunction, crashFrame, frameKey, groupingMessage, isInternalFrame, parameterize, type DefaultGrouping } from "./grouping-components";
import { resolveFingerprint } from "./grouping-fingerprint";
import { clip, compact } from "./normalize-values";

/**
 * Persisted with every hash. Bump the date when the algorithm changes; the family prefix is what
 * enters the hash, so a bump alone never re-splits existing issues.
 */
export const GROUPING_CONFIG = "periscope:2026-11";
const CONFIG_FAMILY = GROUPING_CONFIG.split(":")[0];

const UNLABELED = "<unlabeled event>";
const MAX_TITLE = 200;

export function groupEvent(event: IndexedEvent): GroupingResult {
  const byDefault = defaultGrouping(event);
  const custom = resolveFingerprint(event, byDefault);
  const { strategy, components } = custom ? { strategy: "fingerprint" as const, components: custom } : byDefault;
  // The one-shot digest: createHash builds a Hash stream object per event for a single update.
  const hash = digest("md5", JSON.stringify([CONFIG_FAMILY, strategy, components]), "hex");
  return { hash, strategy, config: GROUPING_CONFIG, ...describe(event) };
}

function defaultGrouping(event: IndexedEvent): DefaultGrouping {
  const exceptions = errorExceptions(event);
  const stacktrace = stacktraceComponents(exceptions);
  if (stacktrace) return { strategy: "stacktrace", components: stacktrace };
  const exception = exceptions.flatMap((value) => [...typeOf(value), ...(value.value === undefined ? [] : [parameterize(value.value)])]);
  if (exception.length > 0) return { strategy: "exception", components: exception };
  const message = groupingMessage(event);
  if (message !== undefined) return { strategy: "message", components: [parameterize(message)] };
  return { strategy: "fallback", components: [] };
}

/**
 * The exceptions that describe an error. SDKs since v11 attach a stack to `captureMessage` events
 * by default, as one type-less exception with `mechanism.synthetic` whose value is the message; that
 * stack says where the message was logged, not what failed, so such events group as messages.
 */
function errorExceptions(event: IndexedEvent): ExceptionValue[] {
  const [only, ...rest] = event.exception;
  const attachedToMessage =
    only !== undefined &&
    rest.length === 0 &&
    event.logentry !== undefined &&
    only.type === undefined &&
    only.mechanism?.synthetic === true &&
    (only.value === undefined || only.value === event.logentry.formatted);
  return attachedToMessage ? [] : event.exception;
}

/** A synthetic exception's type is made up by the SDK (e.g. "Error" for a captured string): not evidence. */
function typeOf(value: ExceptionValue): string[] {
  return value.type !== undefined && value.mechanism?.synthetic !== true ? [value.type] : [];
}

/**
 * Every exception with a stack trace contributes its type and frame keys, so a chain groups by all
 * its code paths. If any frame is in-app only in-app frames count, so traces differing in library
 * or runtime frames group together. Line numbers never count: a code change elsewhere in the file
 * must not split the issue. Null when no frame contributes.
 */
function stacktraceComponents(exceptions: ExceptionValue[]): string[] | null {
  const frames = (value: ExceptionValue) => (value.stacktrace?.frames ?? []).filter((frame) => !isInternalFrame(frame));
  const inAppOnly = exceptions.some((value) => frames(value).some((frame) => frame.in_app === true));
  const components: string[] = [];
  let contributing = 0;
  for (const value of exceptions) {
    if (!value.stacktrace) continue;
    const keys = frames(value)
      .filter((frame) => !inAppOnly || frame.in_app === true)
      .flatMap((frame) => frameKey(frame) ?? []);
    contributing += keys.length;
    components.push(...typeOf(value), ...keys);
  }
  return contributing > 0 ? components : null;
}

function describe(event: IndexedEvent): Pick<GroupingResult, "title" | "culprit" | "metadata" | "eventType"> {
  const thrown = errorExceptions(event).at(-1);
  const frame = crashFrame(event);
  const location = frame && `${frame.module ?? frame.filename ?? frame.abs_path ?? "?"} in ${cleanFunction(frame.function) ?? "?"}`;
  const culprit = event.transaction ?? location ?? "";
  if (thrown) {
    const value = thrown.value?.split(/\r?\n/)[0];
    const title = clip([thrown.type, value].filter((part) => part !== undefined && part !== "").join(": ") || UNLABELED, MAX_TITLE);
    const metadata = compact<IssueMetadata>({
      type: thrown.type,
      value: thrown.value === undefined ? undefined : clip(thrown.value, 1024),
      filename: frame?.filename ?? frame?.abs_path,
      function: frame?.function,
    });
    return { title, culprit, metadata, eventType: "error" };
  }
  const message = event.logentry?.formatted.trim().split(/\r?\n/)[0];
  const title = message ? clip(message, MAX_TITLE) : UNLABELED;
  return { title, culprit, metadata: { title }, eventType: "default" };
}
