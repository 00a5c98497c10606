/**
 * A trace as Sentry's trace endpoint answers it (`OrganizationTraceEndpoint`, `SerializedSpan`): the
 * root spans, each with its `children` nested, every list ordered by start time. A span whose parent
 * is not in the trace (not sent, or in another organisation) is a root. Times are Unix seconds,
 * `duration` milliseconds; `measurements` are the web vitals (`measurements.lcp`).
 */
import type { Project, StoredSpan } from "../../model";

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
  errors: never[];
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

/** `spans` must be ordered by start time (SpanRepo.trace is). */
export function serializeTrace(spans: StoredSpan[], projects: Project[]): TraceSpanJson[] {
  const byProject = new Map(projects.map((project) => [project.id, project]));
  const nodes = new Map(spans.map((span) => [span.spanId, spanJson(span, byProject.get(span.projectId))]));
  const parentOf = new Map(spans.map((span) => [span.spanId, span.parentSpanId]));
  const roots: TraceSpanJson[] = [];
  for (const span of spans) {
    const node = nodes.get(span.spanId)!;
    const parent = span.parentSpanId === null ? undefined : nodes.get(span.parentSpanId);
    if (parent && !isAncestor(span.spanId, span.parentSpanId, parentOf)) parent.children.push(node);
    else roots.push(node);
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
