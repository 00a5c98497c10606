/**
 * The trace an error event was captured in: its `contexts.trace` (trace_id, span_id), as SDKs set
 * it when a span was active. Ids that are not hex of the right length are ignored, so a bad context
 * never links an error to a trace it is not in.
 */
export interface EventTrace {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** 16 lower-case hex digits, or null when the context names no span. */
  spanId: string | null;
}

export function eventTraceOf(contexts: Record<string, Record<string, unknown>> | undefined): EventTrace | null {
  const trace = contexts?.trace;
  if (!trace || typeof trace !== "object") return null;
  const traceId = typeof trace.trace_id === "string" ? trace.trace_id.replace(/-/g, "").toLowerCase() : "";
  if (!/^[0-9a-f]{32}$/.test(traceId) || /^0+$/.test(traceId)) return null;
  const spanId = typeof trace.span_id === "string" ? trace.span_id.toLowerCase() : "";
  return { traceId, spanId: /^[0-9a-f]{16}$/.test(spanId) ? spanId : null };
}
