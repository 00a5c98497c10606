/**
 * What normalisation keeps of one event, so that no event costs more to store, index or render than
 * these bounds allow (docs/security.md, "Stored event limits"). Relay's numbers where it has them;
 * what is cut is counted in the event's `trimmed` map and its notes, never silently lost.
 */
export const EVENT_LIMITS = {
  /** SDK tags kept per event (derived tags such as `level` come on top). */
  tags: 200,
  /** Relay's `MaxChars::TagKey` / `MaxChars::TagValue`: longer tags are dropped, not cut. */
  tagKeyChars: 200,
  tagValueChars: 200,
  /** Frames kept per stack trace: the first and last halves, as Relay and Sentry trim them. */
  framesPerStack: 250,
  /** Frames kept over all the stacks of one event; the newest exceptions get theirs first. */
  framesPerEvent: 500,
  /** Exceptions kept per chain: the oldest and newest halves (the thrown one is the newest). */
  exceptions: 25,
  /** The breadcrumbs nearest the event (Relay's `max_breadcrumbs`). */
  breadcrumbs: 100,
  /** Context objects (`os`, `browser`, `trace`, ...) kept per event. */
  contexts: 100,
  /** Request headers kept per event. */
  headers: 200,
  /** Free-form data (extra, contexts, vars, breadcrumb data): nesting depth, entries per level, bytes. */
  bagDepth: 6,
  bagEntries: 200,
  bagBytes: 64 * 1024,
  /** Processing notes kept per event; the rest are counted in one last note. */
  notes: 100,
} as const;

/**
 * The first and last halves of a list longer than `max`, and where the cut starts and ends in the
 * original (zero-based, end exclusive), as Sentry's `frames_omitted` marks it.
 */
export function bothEnds<T>(list: readonly T[], max: number): { kept: T[]; omitted?: [number, number] } {
  if (list.length <= max) return { kept: list as T[] };
  const head = Math.ceil(max / 2);
  const tail = max - head;
  const end = list.length - tail;
  return { kept: [...list.slice(0, head), ...list.slice(end)], omitted: [head, end] };
}
