/**
 * A trace as Sentry's trace endpoint answers it (`OrganizationTraceEndpoint`, `SerializedSpan`): the
 * root spans, each with its `children` nested, every list ordered by start time. A span whose parent
 * is not in the trace (not sent, or in another organisation) is a root. Times are Unix seconds,
 * `duration` milliseconds; `measurements` are the web vitals (`measurements.lcp`).
 */
import type { Project, StoredSpan } from "../../model";
import type { Trace, TraceError } from "../../services/telemetry/get-trace";

/**
 * An error captured inside the trace (Sentry's `SerializedIssue`): in the `errors` of the span named
 * by its contexts.trace.span_id, or a root of the answer when that span was not received.
 */
export interface TraceErrorJson {
  event_id: string;
  issue_id: number;
  issue: string;
  project_id: number;
  project_slug: string;
  span: string | null;
  transaction: string;
  title: string;
  description: string;
  culprit: string;
  level: string;
  start_timestamp: number;
  end_timestamp: number;
  event_type: "error";
  children: never[];
}

export interface TraceSpanJson {
  event_id: string;
  transaction_id: string | null;
  project_id: number;
  project_slug: string;
  profile_id: string;
  profiler_id: string;
  parent_span_id: string | null;
  start_timestamp: number;
  end_timestamp: number;
  measurements: Record<string, number>;
  duration: number;
  transaction: string;
  is_transaction: boolean;
  description: string;
  sdk_name: string;
  op: string;
  name: string;
  event_type: "span";
  additional_attributes: Record<string, never>;
  errors: TraceErrorJson[];
  occurrences: never[];
  children: TraceSpanJson[];
}

function spanJson(span: StoredSpan, project: Project | undefined): TraceSpanJson {
  return {
    event_id: span.spanId,
    transaction_id: span.eventId,
    project_id: Number(span.projectId),
    project_slug: project?.slug ?? "",
    profile_id: "",
    profiler_id: "",
    parent_span_id: span.parentSpanId,
    start_timestamp: span.start / 1000,
    end_timestamp: span.end / 1000,
    measurements: Object.fromEntries(Object.entries(span.measurements).map(([name, value]) => [`measurements.${name}`, value])),
    duration: span.end - span.start,
    transaction: span.segmentName ?? "",
    is_transaction: span.isSegment,
    description: span.name,
    sdk_name: span.sdkName ?? "",
    op: span.op ?? "default",
    name: span.name,
    event_type: "span",
    additional_attributes: {},
    errors: [],
    occurrences: [],
    children: [],
  };
}

function errorJson(error: TraceError, project: Project | undefined): TraceErrorJson {
  const { event, issue } = error;
  const title = issue?.title ?? event.payload.logentry?.formatted ?? "";
  return {
    event_id: event.eventId,
    issue_id: Number(event.issueId),
    issue: issue?.shortId ?? "",
    project_id: Number(event.projectId),
    project_slug: project?.slug ?? "",
    span: error.spanId,
    transaction: event.payload.transaction ?? "",
    title,
    description: title,
    culprit: issue?.culprit ?? "",
    level: event.payload.level,
    start_timestamp: event.timestamp / 1000,
    end_timestamp: event.timestamp / 1000,
    event_type: "error",
    children: [],
  };
}

/**
 * The trace's root spans with their children nested; each error in its span's `errors`, or a root
 * when its span is not in the trace. `trace.spans` must be ordered by start time (SpanRepo.trace is).
 */
export function serializeTrace(trace: Trace, projects: Project[]): (TraceSpanJson | TraceErrorJson)[] {
  const { spans } = trace;
  const byProject = new Map(projects.map((project) => [project.id, project]));
  const nodes = new Map(spans.map((span) => [span.spanId, spanJson(span, byProject.get(span.projectId))]));
  const parentOf = new Map(spans.map((span) => [span.spanId, span.parentSpanId]));
  const roots: (TraceSpanJson | TraceErrorJson)[] = [];
  for (const span of spans) {
    const node = nodes.get(span.spanId)!;
    const parent = span.parentSpanId === null ? undefined : nodes.get(span.parentSpanId);
    if (parent && !isAncestor(span.spanId, span.parentSpanId, parentOf)) parent.children.push(node);
    else roots.push(node);
  }
  for (const error of trace.errors) {
    const json = errorJson(error, byProject.get(error.event.projectId));
    const span = error.spanId === null ? undefined : nodes.get(error.spanId);
    if (span) span.errors.push(json);
    else roots.push(json);
  }
  return roots;
}

/** Whether `spanId` is `from` or above it: parent links sent by clients may loop, and a loop must not nest. */
function isAncestor(spanId: string, from: string | null, parentOf: Map<string, string | null>): boolean {
  const seen = new Set<string>();
  for (let at = from; at !== null && !seen.has(at); at = parentOf.get(at) ?? null) {
    if (at === spanId) return true;
    seen.add(at);
  }
  return false;
}
