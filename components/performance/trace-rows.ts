/**
 * A trace as the rows of its waterfall: every span once, depth-first by start time, children under
 * their parent. A span whose parent was not received is a root marked `orphan`, not left out; each
 * error sits on the span named by its contexts.trace.span_id. Plain data: the page hands it to the
 * client component (trace-waterfall.tsx).
 */
import type { Project } from "@/src/model";
import type { Trace } from "@/src/services/telemetry/get-trace";

export interface TraceRowError {
  eventId: string;
  issueId: string;
  shortId: string;
  title: string;
  level: string;
  projectSlug: string;
  /** The span it was captured in; null when the event names none. */
  spanId: string | null;
  /** Unix ms. */
  timestamp: number;
}

export interface TraceRow {
  spanId: string;
  parentSpanId: string | null;
  depth: number;
  /** The parent is named but was not received. */
  orphan: boolean;
  /** How many spans sit under this one (all depths). */
  descendants: number;
  projectSlug: string;
  op: string;
  name: string;
  status: string | null;
  isSegment: boolean;
  segmentName: string | null;
  eventId: string | null;
  release: string | null;
  environment: string | null;
  sdkName: string | null;
  /** Unix ms. */
  start: number;
  end: number;
  attributes: [string, string][];
  measurements: [string, number][];
  errors: TraceRowError[];
}

export interface TraceRows {
  traceId: string;
  start: number;
  end: number;
  rows: TraceRow[];
  /** Every error of the trace, oldest first (also on their span's row when it is in the trace). */
  errors: TraceRowError[];
  projects: string[];
}

const attributeText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value) ?? String(value));

export function traceRows(trace: Trace, projects: Project[]): TraceRows {
  const slugOf = new Map(projects.map((project) => [project.id, project.slug]));
  const errors: TraceRowError[] = trace.errors.map(({ event, issue, spanId }) => ({
    eventId: event.eventId, issueId: event.issueId, shortId: issue?.shortId ?? "", title: issue?.title ?? event.payload.logentry?.formatted ?? "Error",
    level: event.payload.level, projectSlug: slugOf.get(event.projectId) ?? "", spanId, timestamp: event.timestamp,
  }));
  const errorsOf = new Map<string, TraceRowError[]>();
  for (const error of errors) if (error.spanId !== null) errorsOf.set(error.spanId, [...(errorsOf.get(error.spanId) ?? []), error]);
  // A span id may repeat across projects only by accident; the first (earliest) one keeps it.
  const byId = new Map<string, (typeof trace.spans)[number]>();
  for (const span of trace.spans) if (!byId.has(span.spanId)) byId.set(span.spanId, span);
  const children = new Map<string | null, string[]>();
  const roots: string[] = [];
  for (const span of byId.values()) {
    const parent = span.parentSpanId !== null && byId.has(span.parentSpanId) && !loops(span.spanId, byId) ? span.parentSpanId : null;
    if (parent === null) roots.push(span.spanId);
    else children.set(parent, [...(children.get(parent) ?? []), span.spanId]);
  }
  const rows: TraceRow[] = [];
  const visit = (spanId: string, depth: number): number => {
    const span = byId.get(spanId)!;
    const row: TraceRow = {
      spanId, parentSpanId: span.parentSpanId, depth, orphan: depth === 0 && span.parentSpanId !== null, descendants: 0,
      projectSlug: slugOf.get(span.projectId) ?? "", op: span.op ?? "default", name: span.name, status: span.status, isSegment: span.isSegment,
      segmentName: span.segmentName, eventId: span.eventId, release: span.release, environment: span.environment, sdkName: span.sdkName,
      start: span.start, end: span.end,
      attributes: Object.entries(span.attributes).map(([key, value]) => [key, attributeText(value)] as [string, string]).sort((a, b) => a[0].localeCompare(b[0])),
      measurements: Object.entries(span.measurements).sort((a, b) => a[0].localeCompare(b[0])),
      errors: errorsOf.get(spanId) ?? [],
    };
    rows.push(row);
    for (const child of children.get(spanId) ?? []) row.descendants += 1 + visit(child, depth + 1);
    return row.descendants;
  };
  for (const root of roots) visit(root, 0);
  const times = trace.spans.flatMap((span) => [span.start, span.end]).concat(errors.map((error) => error.timestamp));
  return {
    traceId: trace.traceId, start: Math.min(...times), end: Math.max(...times), rows, errors,
    projects: [...new Set(rows.map((row) => row.projectSlug).concat(errors.map((error) => error.projectSlug)))].filter(Boolean).sort(),
  };
}

/** Whether following parents from `spanId` comes back to it: such a span is shown as a root, not lost. */
function loops(spanId: string, byId: Map<string, { parentSpanId: string | null }>): boolean {
  const seen = new Set<string>();
  for (let at = byId.get(spanId)?.parentSpanId ?? null; at !== null && byId.has(at); at = byId.get(at)!.parentSpanId) {
    if (at === spanId) return true;
    if (seen.has(at)) return false;
    seen.add(at);
  }
  return false;
}
