import { AppError } from "../../errors";
import type { Issue, Project, StoredEvent, StoredSpan } from "../../model";
import { eventTraceOf } from "../../processing/trace-context";
import type { Storage } from "../../storage/types";

/** At most this many errors are listed under one trace (a retry loop can throw thousands). */
export const TRACE_ERROR_LIMIT = 200;

/** An error event captured inside a trace, with the span it was captured in (null: none named). */
export interface TraceError {
  event: StoredEvent;
  issue: Issue | null;
  spanId: string | null;
}

export interface Trace {
  traceId: string;
  /** Ordered by start time. */
  spans: StoredSpan[];
  /** Oldest first. */
  errors: TraceError[];
}

/** A trace id as 32 lower-case hex digits; anything else is a 400 naming it. */
export function traceIdOf(raw: string): string {
  const traceId = raw.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(traceId)) throw new AppError("bad_request", `invalid trace id: ${raw} (expected 32 hex digits)`);
  return traceId;
}

/**
 * Every span of a trace in these projects, and the errors captured inside it (contexts.trace), each
 * pinned to its span. A trace id that is not 32 hex digits is a 400; a trace with neither spans nor
 * errors a 404.
 */
export async function getTrace(storage: Storage, projects: Project[], rawTraceId: string): Promise<Trace> {
  const traceId = traceIdOf(rawTraceId);
  if (projects.length === 0) throw new AppError("not_found", "trace not found");
  const projectIds = projects.map((project) => project.id);
  const [spans, events] = await Promise.all([
    storage.spans.trace(projectIds, traceId),
    storage.events.ofTrace(projectIds, traceId, TRACE_ERROR_LIMIT),
  ]);
  if (spans.length === 0 && events.length === 0) throw new AppError("not_found", "trace not found");
  const issues = new Map<string, Issue | null>();
  for (const event of events) {
    if (!issues.has(event.issueId)) issues.set(event.issueId, await storage.issues.getById(event.issueId));
  }
  const errors = events.map((event) => ({
    event,
    issue: issues.get(event.issueId) ?? null,
    spanId: eventTraceOf(event.payload.contexts)?.spanId ?? null,
  }));
  return { traceId, spans, errors };
}
