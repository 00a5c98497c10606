/**
 * `GET /api/0/organizations/{org}/events/?dataset=transactions|spans&field=…` (and `logs`, discover-logs.ts) — the subset of
 * Sentry's Discover / Explore table query Periscope serves: rows of the requested fields, newest
 * first, with Sentry's `meta` describing each field's type and unit:
 *
 *   { data: [{ id, transaction, "transaction.duration", … }], meta: { fields: {…}, units: {…}, dataset } }
 *
 * `dataset=transactions` lists transactions: the root span of each transaction event (its `id` is
 * the event id, for /events/{id}/) and each streamed segment (page loads and navigations of SDK 11,
 * `id` = span id). `dataset=spans` lists every span. Paged with `per_page` and the `Link` cursor.
 */
import { AppError } from "../../errors";
import { getRuntime } from "../../runtime";
import { listSpans } from "../../services/telemetry/list-spans";
import type { Project, SpanListQuery, StoredSpan } from "../../model";
import { isoDate } from "../serializers/common";
import { json } from "../handle";
import { pageParamsOf } from "../page-params";
import { linkHeader } from "../pagination";
import { searchFiltersOf } from "../search-filters";
import { aggregateResponse, isAggregateQuery } from "./discover-aggregates";
import { logsDiscoverResponse } from "./discover-logs";

type FieldType = "string" | "integer" | "number" | "duration" | "date" | "boolean";
interface Column {
  type: FieldType;
  unit?: string;
  value(span: StoredSpan, project: Project): unknown;
}

const duration = (span: StoredSpan) => span.end - span.start;

const COMMON: Record<string, Column> = {
  project: { type: "string", value: (_span, project) => project.slug },
  "project.name": { type: "string", value: (_span, project) => project.slug },
  "project.id": { type: "integer", value: (_span, project) => Number(project.id) },
  trace: { type: "string", value: (span) => span.traceId },
  timestamp: { type: "date", value: (span) => isoDate(span.end) },
  release: { type: "string", value: (span) => span.release },
  environment: { type: "string", value: (span) => span.environment },
};

const DATASETS: Record<"transactions" | "spans", Record<string, Column>> = {
  transactions: {
    ...COMMON,
    id: { type: "string", value: (span) => span.eventId ?? span.spanId },
    transaction: { type: "string", value: (span) => span.segmentName ?? span.name },
    "transaction.op": { type: "string", value: (span) => span.op },
    "transaction.duration": { type: "duration", unit: "millisecond", value: duration },
    "transaction.status": { type: "string", value: (span) => span.status },
    "trace.span": { type: "string", value: (span) => span.spanId },
  },
  spans: {
    ...COMMON,
    id: { type: "string", value: (span) => span.spanId },
    "span.op": { type: "string", value: (span) => span.op },
    "span.description": { type: "string", value: (span) => span.name },
    "span.name": { type: "string", value: (span) => span.name },
    "span.duration": { type: "duration", unit: "millisecond", value: duration },
    "span.status": { type: "string", value: (span) => span.status },
    parent_span: { type: "string", value: (span) => span.parentSpanId },
    is_transaction: { type: "boolean", value: (span) => span.isSegment },
    transaction: { type: "string", value: (span) => span.segmentName },
    "transaction.event_id": { type: "string", value: (span) => span.eventId },
    "precise.start_ts": { type: "number", value: (span) => span.start / 1000 },
    "precise.finish_ts": { type: "number", value: (span) => span.end / 1000 },
  },
};

/** Web vitals in milliseconds; CLS has no unit. Other measurements are plain numbers. */
const MS_MEASUREMENTS = new Set(["fp", "fcp", "lcp", "fid", "inp", "ttfb", "ttfb.requesttime", "connection.rtt", "app_start_cold", "app_start_warm"]);

function columnOf(dataset: Record<string, Column>, field: string): Column | undefined {
  // hasOwn: `field=__proto__` or `field=constructor` must be an unknown field, not Object.prototype's.
  if (Object.hasOwn(dataset, field)) return dataset[field];
  const measurement = /^measurements\.([a-z0-9_.-]+)$/i.exec(field)?.[1]?.toLowerCase();
  if (measurement === undefined) return undefined;
  const ms = MS_MEASUREMENTS.has(measurement);
  return { type: ms ? "duration" : "number", ...(ms ? { unit: "millisecond" } : {}), value: (span) => (Object.hasOwn(span.measurements, measurement) ? span.measurements[measurement] : null) ?? null };
}

/** Query filters per dataset, mapped to the span list's own. */
function listFiltersOf(dataset: "transactions" | "spans", query: string): Omit<SpanListQuery, "projectIds" | "limit" | "cursor"> {
  if (dataset === "transactions") {
    const filters = searchFiltersOf(query, ["transaction", "transaction.op", "trace", "event.type"] as const);
    const eventType = filters.get("event.type");
    if (eventType && eventType.some((value) => value !== "transaction")) throw new AppError("bad_request", "invalid query: event.type must be transaction");
    return {
      isSegment: true, op: filters.get("transaction.op")?.[0], segmentName: filters.get("transaction")?.[0], traceId: filters.get("trace")?.[0],
    };
  }
  const filters = searchFiltersOf(query, ["span.op", "transaction", "trace", "is_transaction"] as const);
  const isTransaction = filters.get("is_transaction")?.[0];
  if (isTransaction !== undefined && isTransaction !== "true" && isTransaction !== "false") {
    throw new AppError("bad_request", `invalid query: is_transaction must be true or false, not ${isTransaction}`);
  }
  return {
    isSegment: isTransaction === undefined ? undefined : isTransaction === "true",
    op: filters.get("span.op")?.[0], segmentName: filters.get("transaction")?.[0], traceId: filters.get("trace")?.[0],
  };
}

export async function discoverResponse(request: Request, projects: Project[]): Promise<Response> {
  const { storage, publicUrl } = getRuntime();
  const url = new URL(request.url);
  const params = url.searchParams;
  const dataset = params.get("dataset");
  // Logs (issue 38): Sentry calls the dataset `ourlogs`; `logs` is accepted too.
  if (dataset === "logs" || dataset === "ourlogs") return logsDiscoverResponse(request, projects, dataset);
  if (dataset !== "transactions" && dataset !== "spans") {
    throw new AppError("bad_request", `unsupported dataset: ${dataset ?? "(none)"} (supported: transactions, spans, logs, ourlogs)`);
  }
  const fields = [...new Set(params.getAll("field"))];
  if (fields.length === 0) throw new AppError("bad_request", "No columns selected");
  // Performance (issue 36): aggregate functions (p95(), count(), failure_rate() …) group by transaction.
  if (isAggregateQuery(fields)) {
    if (dataset !== "transactions") throw new AppError("bad_request", "aggregate fields are supported on dataset=transactions only");
    return aggregateResponse(url, projects, fields);
  }
  const columns = fields.map((field) => {
    const column = columnOf(DATASETS[dataset], field);
    if (!column) throw new AppError("bad_request", `Unknown field: ${field}`);
    return [field, column] as const;
  });
  const sort = params.get("sort") ?? "-timestamp";
  if (sort !== "-timestamp") throw new AppError("bad_request", `unsupported sort: ${sort} (supported: -timestamp)`);
  const filters = listFiltersOf(dataset, params.get("query") ?? "");
  const page = await listSpans(storage, projects, { ...pageParamsOf(url), ...filters });
  const byId = new Map(projects.map((project) => [project.id, project]));
  const data = page.items.flatMap((span) => {
    const project = byId.get(span.projectId);
    return project ? [Object.fromEntries(columns.map(([field, column]) => [field, column.value(span, project)]))] : [];
  });
  const meta = {
    fields: Object.fromEntries(columns.map(([field, column]) => [field, column.type])),
    units: Object.fromEntries(columns.map(([field, column]) => [field, column.unit ?? null])),
    dataset,
    isMetricsData: false,
    isMetricsExtractedData: false,
    tips: {},
  };
  return json({ data, meta }, 200, linkHeader(request, publicUrl, page.nextCursor));
}
