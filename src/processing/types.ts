/**
 * The event after normalisation: Sentry's event payload shape (snake_case, as the protocol and the
 * REST API name things), with every optional part reduced to one canonical form so that grouping,
 * storage and the UI never deal with the protocol's alternatives (string vs object messages, tag
 * objects vs pair lists, bare exception lists, ISO vs numeric timestamps).
 */

export const LEVELS = ["fatal", "error", "warning", "info", "debug"] as const;
export type Level = (typeof LEVELS)[number];

export interface StackFrame {
  filename?: string;
  abs_path?: string;
  function?: string;
  raw_function?: string;
  module?: string;
  package?: string;
  platform?: string;
  lineno?: number;
  colno?: number;
  context_line?: string;
  pre_context?: string[];
  post_context?: string[];
  in_app?: boolean;
  vars?: Record<string, unknown>;
  instruction_addr?: string;
  /** What source-map resolution did with the frame (src/symbolication), as Sentry's frame `data`. */
  data?: FrameData;
}

/** Sentry's EventError types for JavaScript frames that source maps could not (fully) resolve. */
export type SourceMapNoteType = "js_no_source" | "js_invalid_source" | "js_invalid_sourcemap_location" | "js_missing_sources_content";

/** Why a frame is not resolved: the type, the reason in words, and the ids and URLs involved. */
export interface SourceMapNote {
  type: SourceMapNoteType;
  reason: string;
  data: Record<string, string | number | string[] | null>;
}

export interface FrameData {
  symbolicated: boolean;
  /** How the map was found: by the bundle's debug id, or by release + URL (bundles, or older release files). */
  resolved_with?: "debug-id" | "release" | "release-old";
  /** URL of the map that resolved the frame. */
  sourcemap?: string;
  /** Why the frame is not resolved (or resolved without source lines). */
  unresolved?: SourceMapNote;
}

export interface Stacktrace {
  /** Caller → callee: the last frame is where the exception was raised. */
  frames: StackFrame[];
  /**
   * Frames cut from the middle of a long stack: `[start, end)` indices in the stack as sent, so the
   * kept frames are the sent ones before `start` and from `end` on (EVENT_LIMITS.framesPerStack).
   */
  frames_omitted?: [number, number];
}

export interface Mechanism {
  type: string;
  handled?: boolean;
  synthetic?: boolean;
  description?: string;
  exception_id?: number;
  parent_id?: number;
  source?: string;
  is_exception_group?: boolean;
  data?: Record<string, unknown>;
}

export interface ExceptionValue {
  type?: string;
  value?: string;
  module?: string;
  stacktrace?: Stacktrace;
  /** The frames as the SDK sent them, when source maps changed `stacktrace`. */
  raw_stacktrace?: Stacktrace;
  mechanism?: Mechanism;
}

export interface Breadcrumb {
  /** Unix seconds. */
  timestamp: number;
  type?: string;
  category?: string;
  message?: string;
  level?: Level;
  data?: Record<string, unknown>;
}

export interface EventUser {
  id?: string;
  email?: string;
  username?: string;
  ip_address?: string;
  name?: string;
  geo?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

export interface EventRequest {
  url?: string;
  method?: string;
  headers?: [string, string][];
  query_string?: string;
  data?: unknown;
  cookies?: string;
  env?: Record<string, unknown>;
}

export interface LogEntry {
  /** The template (`"user %s failed"`) when params exist, else the message itself. */
  message: string;
  params?: unknown[];
  formatted: string;
}

export interface SdkInfo {
  name: string;
  version: string;
  integrations?: string[];
  packages?: { name: string; version: string }[];
}

/** Something normalisation corrected or dropped, kept on the event like Sentry's `errors` list. */
export interface ProcessingNote {
  type: string;
  name?: string;
  value?: unknown;
  /** Source-map notes (SourceMapNote) say why in words and name their ids and URLs. */
  reason?: string;
  data?: SourceMapNote["data"];
}

export interface NormalizedEvent {
  event_id: string;
  /** Unix seconds (float), already corrected for client clock drift. */
  timestamp: number;
  /** Unix seconds (float) when the server received it. */
  received: number;
  platform: string;
  level: Level;
  environment: string;
  logger?: string;
  transaction?: string;
  server_name?: string;
  release?: string;
  dist?: string;
  logentry?: LogEntry;
  /** Pairs, in the order they should be displayed; includes derived tags (level, release, browser, ...). */
  tags: [string, string][];
  contexts: Record<string, Record<string, unknown>>;
  user?: EventUser;
  request?: EventRequest;
  breadcrumbs: Breadcrumb[];
  /** Oldest → newest: the last value is the exception that was thrown. */
  exception: ExceptionValue[];
  fingerprint?: string[];
  sdk?: SdkInfo;
  extra?: Record<string, unknown>;
  modules?: Record<string, string>;
  errors: ProcessingNote[];
  /** How many items each limit cut, by field path ("tags", "breadcrumbs", "extra", ...); absent when none. */
  trimmed?: Record<string, number>;
  /**
   * What data scrubbing changed, as Sentry's `_meta`: a tree shaped like the SDK's payload with
   * `{"": {"rem": [[rule, type, start?, end?]], "len"?}}` at each changed value (src/processing/scrub).
   */
  _meta?: Record<string, unknown>;
}

/**
 * What ingest normalises to group, tag and count an event. The display-only parts are normalised
 * when the event is read, from the SDK payload ingest stores (stored-event.ts).
 */
export type IndexedEvent = Omit<NormalizedEvent, "breadcrumbs" | "extra" | "modules" | "errors" | "trimmed" | "_meta">;

/** The parts of an event inbound filters read, taken before scrubbing (normalize.ts filterViewOf). */
export type FilterView = Pick<IndexedEvent, "release" | "logentry" | "user" | "request" | "exception">;

export type GroupingStrategy = "fingerprint" | "stacktrace" | "exception" | "message" | "fallback";

export interface IssueMetadata {
  type?: string;
  value?: string;
  filename?: string;
  function?: string;
  title?: string;
}

export interface GroupingResult {
  /** 32 hex chars. */
  hash: string;
  strategy: GroupingStrategy;
  /** Grouping config version; persisted next to the hash so algorithm changes never re-split issues. */
  config: string;
  title: string;
  culprit: string;
  metadata: IssueMetadata;
  /**
   * Sentry's event type: "error" when an exception describes what failed, "default" otherwise
   * (messages, including SDK 11 messages that carry a synthetic exception for their stack).
   */
  eventType: "error" | "default";
}
