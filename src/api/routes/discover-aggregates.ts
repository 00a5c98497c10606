/**
 * `GET /api/0/organizations/{org}/events/?dataset=transactions&field=transaction&field=p95()&…` —
 * the aggregate form of Sentry's Discover query, as its performance pages ask for it: one row per
 * transaction (and project) with the aggregate functions requested, over `statsPeriod` or `start` +
 * `end`, filtered by `environment`, `query` (transaction:, transaction.op:, release:), sorted by
 * any field. Figures come from the samples of every segment (ADR 0022); percentiles interpolate
 * linearly between the nearest ranks.
 */
import { AppError } from "../../errors";
import { getRuntime } from "../../runtime";
import { transactionsReport, type TransactionRow } from "../../services/telemetry/performance";
import type { Project } from "../../model";
import { isoDate } from "../serializers/common";
import { json } from "../handle";
import { searchFiltersOf } from "../search-filters";

type FieldType = "string" | "integer" | "duration" | "percentage" | "rate" | "date" | "number";
interface Aggregate {
  type: FieldType;
  unit?: string;
  value(row: TransactionRow, project: Project): unknown;
}

const ms = (value: (row: TransactionRow) => number): Aggregate => ({ type: "duration", unit: "millisecond", value });

const FIELDS: Record<string, Aggregate> = {
  transaction: { type: "string", value: (row) => row.name },
  "transaction.op": { type: "string", value: (row) => row.op },
  project: { type: "string", value: (_row, project) => project.slug },
  "project.name": { type: "string", value: (_row, project) => project.slug },
  "project.id": { type: "integer", value: (_row, project) => Number(project.id) },
  "count()": { type: "integer", value: (row) => row.count },
  "failure_count()": { type: "integer", value: (row) => row.failures },
  "failure_rate()": { type: "percentage", value: (row) => row.failureRate },
  "tpm()": { type: "rate", unit: "1/minute", value: (row) => row.throughput },
  "epm()": { type: "rate", unit: "1/minute", value: (row) => row.throughput },
  "p50()": ms((row) => row.p50),
  "p75()": ms((row) => row.p75),
  "p95()": ms((row) => row.p95),
  "p99()": ms((row) => row.p99),
  "p50(transaction.duration)": ms((row) => row.p50),
  "p75(transaction.duration)": ms((row) => row.p75),
  "p95(transaction.duration)": ms((row) => row.p95),
  "p99(transaction.duration)": ms((row) => row.p99),
  "avg(transaction.duration)": ms((row) => row.total / row.count),
  "sum(transaction.duration)": ms((row) => row.total),
  "last_seen()": { type: "date", value: (row) => isoDate(row.lastSeen) },
};

/** Whether the query asks for aggregates (any field is a function). */
export const isAggregateQuery = (fields: string[]) => fields.some((field) => field.includes("("));

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const MAX_RANGE = 90 * 86_400_000;

function windowOf(params: URLSearchParams, now: number): { start: number; end: number } {
  const rawStart = params.get("start");
  const rawEnd = params.get("end");
  if (rawStart || rawEnd) {
    const start = Date.parse(rawStart ?? "");
    const end = Date.parse(rawEnd ?? "");
    if (Number.isNaN(start) || Number.isNaN(end)) throw new AppError("bad_request", "start and end must both be ISO 8601 dates");
    if (end <= start) throw new AppError("bad_request", "end must be after start");
    if (end - start > MAX_RANGE) throw new AppError("bad_request", "The time range may be at most 90 days.");
    return { start, end };
  }
  const period = params.get("statsPeriod") || "24h";
  const match = /^(\d+)([smhdw])$/.exec(period);
  if (!match) throw new AppError("bad_request", `invalid statsPeriod: ${period} (expected a number and a unit, like 24h or 14d)`);
  const span = Number(match[1]) * UNIT_MS[match[2]!]!;
  if (span <= 0 || span > MAX_RANGE) throw new AppError("bad_request", "The time range may be at most 90 days.");
  return { start: now - span, end: now };
}

export async function aggregateResponse(url: URL, projects: Project[], fields: string[]): Promise<Response> {
  const { storage } = getRuntime();
  const params = url.searchParams;
  const columns = fields.map((field) => {
    const column = Object.hasOwn(FIELDS, field) ? FIELDS[field] : undefined;
    if (!column) throw new AppError("bad_request", `Unknown field: ${field} (aggregates supported: ${Object.keys(FIELDS).filter((f) => f.includes("(")).join(", ")})`);
    return [field, column] as const;
  });
  const sort = params.get("sort") ?? `-${fields.find((field) => field.includes("(")) ?? "count()"}`;
  const sortField = sort.startsWith("-") ? sort.slice(1) : sort;
  if (!fields.includes(sortField)) throw new AppError("bad_request", `unsupported sort: ${sort} (sort by one of the fields requested)`);
  const filters = searchFiltersOf(params.get("query") ?? "", ["transaction", "transaction.op", "release", "event.type"] as const);
  if (filters.get("event.type")?.some((value) => value !== "transaction")) throw new AppError("bad_request", "invalid query: event.type must be transaction");
  const environments = params.getAll("environment");
  if (environments.length > 1) throw new AppError("bad_request", "only one environment may be given");
  const perPage = Number(params.get("per_page") ?? "50");
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) throw new AppError("bad_request", "per_page must be an integer from 1 to 100");

  const window = windowOf(params, Date.now());
  const release = filters.get("release")?.[0];
  const report = await transactionsReport(storage, projects, { ...window, environment: environments[0], release }, window.end - window.start);
  const name = filters.get("transaction")?.[0];
  const op = filters.get("transaction.op")?.[0];
  const byId = new Map(projects.map((project) => [project.id, project]));
  const sortColumn = FIELDS[sortField]!;
  const sign = sort.startsWith("-") ? -1 : 1;
  const rows = report.rows
    .filter((row) => (name === undefined || row.name === name) && (op === undefined || row.op === op) && byId.has(row.projectId))
    .map((row) => ({ row, project: byId.get(row.projectId)! }))
    .sort((a, b) => {
      const x = sortColumn.value(a.row, a.project);
      const y = sortColumn.value(b.row, b.project);
      const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return sign * order || a.row.name.localeCompare(b.row.name);
    })
    .slice(0, perPage);
  const data = rows.map(({ row, project }) => Object.fromEntries(columns.map(([field, column]) => [field, column.value(row, project)])));
  const meta = {
    fields: Object.fromEntries(columns.map(([field, column]) => [field, column.type])),
    units: Object.fromEntries(columns.map(([field, column]) => [field, column.unit ?? null])),
    dataset: "transactions",
    isMetricsData: false,
    isMetricsExtractedData: false,
    tips: {},
  };
  return json({ data, meta });
}
