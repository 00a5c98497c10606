/**
 * `GET /api/0/organizations/{org}/events/?dataset=logs` (Sentry's name: `ourlogs`; both are
 * served) — the log lines of the requested projects, newest first, in Sentry's Explore table shape:
 *
 *   { data: [{ id, timestamp, message, severity, trace, … }], meta: { fields, units, dataset } }
 *
 * Fields are Sentry's logs fields (`sentry.item_id`/`id`, `timestamp`, `timestamp_precise`,
 * `message`, `severity`, `severity_number`, `trace`, `project`, `project.id`); any other field names
 * an attribute (null where a line has none). `timestamp_precise` is the nanoseconds as a decimal
 * string: as a JSON number it would lose its last digits in every JavaScript client. `query` is the
 * log search (src/services/telemetry/list-logs.ts); the window is `statsPeriod` or `start`/`end`
 * (none: everything retained). Paged with `per_page` and the `Link` cursor.
 */
import { AppError } from "../../errors";
import { getRuntime } from "../../runtime";
import { listLogs, parseLogSearch } from "../../services/telemetry/list-logs";
import type { Project, StoredLog } from "../../model";
import { isoDate } from "../serializers/common";
import { json } from "../handle";
import { pageParamsOf } from "../page-params";
import { linkHeader } from "../pagination";

type FieldType = "string" | "integer" | "number" | "date" | "boolean";
interface Column {
  type: FieldType;
  value(log: StoredLog, project: Project): unknown;
}

const COLUMNS: Record<string, Column> = {
  id: { type: "string", value: (log) => log.id },
  "sentry.item_id": { type: "string", value: (log) => log.id },
  timestamp: { type: "date", value: (log) => isoDate(log.timestamp) },
  timestamp_precise: { type: "string", value: (log) => log.timestampNs },
  message: { type: "string", value: (log) => log.body },
  severity: { type: "string", value: (log) => log.level },
  severity_number: { type: "integer", value: (log) => log.severityNumber },
  trace: { type: "string", value: (log) => log.traceId },
  span_id: { type: "string", value: (log) => log.spanId },
  project: { type: "string", value: (_log, project) => project.slug },
  "project.name": { type: "string", value: (_log, project) => project.slug },
  "project.id": { type: "integer", value: (_log, project) => Number(project.id) },
  "observed_timestamp": { type: "date", value: (log) => isoDate(log.received) },
};

const ATTRIBUTE_TYPES: Record<string, FieldType> = { string: "string", boolean: "boolean", integer: "integer", double: "number" };

/** A column of the dataset, or an attribute's value (typed by the first line that has it). */
function columnOf(field: string, logs: StoredLog[]): Column {
  if (Object.hasOwn(COLUMNS, field)) return COLUMNS[field]!;
  // Sentry's typed attribute form: tags[name,number].
  const name = /^tags\[([^\],]+)(?:,(?:string|number|boolean))?\]$/.exec(field)?.[1] ?? field;
  const first = logs.find((log) => Object.hasOwn(log.attributes, name));
  const type = first ? (ATTRIBUTE_TYPES[first.attributes[name]!.type] ?? "string") : "string";
  return { type, value: (log) => (Object.hasOwn(log.attributes, name) ? log.attributes[name]!.value : null) };
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

function windowOf(params: URLSearchParams, now: number): { start?: number; end?: number } {
  const start = params.get("start");
  const end = params.get("end");
  if (start || end) {
    const ms = (raw: string | null, name: string) => {
      const value = raw ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`) : Number.NaN;
      if (Number.isNaN(value)) throw new AppError("bad_request", `invalid ${name}: ${raw ?? "(missing)"} (expected an ISO 8601 date; start and end go together)`);
      return value;
    };
    return { start: ms(start, "start"), end: ms(end, "end") };
  }
  const period = params.get("statsPeriod");
  if (!period) return {};
  const match = /^(\d{1,6})([smhdw])$/.exec(period);
  if (!match) throw new AppError("bad_request", `invalid statsPeriod: ${period} (expected a number and a unit, like 24h or 14d)`);
  return { start: now - Number(match[1]) * UNIT_MS[match[2]!]! };
}

export async function logsDiscoverResponse(request: Request, projects: Project[], dataset: string): Promise<Response> {
  const { storage, publicUrl } = getRuntime();
  const url = new URL(request.url);
  const params = url.searchParams;
  const fields = [...new Set(params.getAll("field"))];
  if (fields.length === 0) throw new AppError("bad_request", "No columns selected");
  const sort = params.get("sort") ?? "-timestamp";
  if (sort !== "-timestamp" && sort !== "-timestamp_precise") throw new AppError("bad_request", `unsupported sort: ${sort} (supported: -timestamp)`);
  const search = parseLogSearch(params.get("query") ?? "");
  const page = await listLogs(storage, projects, { ...pageParamsOf(url), ...windowOf(params, Date.now()), ...search });
  const columns = fields.map((field) => [field, columnOf(field, page.items)] as const);
  const byId = new Map(projects.map((project) => [project.id, project]));
  const data = page.items.flatMap((log) => {
    const project = byId.get(log.projectId);
    return project ? [Object.fromEntries(columns.map(([field, column]) => [field, column.value(log, project)]))] : [];
  });
  const meta = {
    fields: Object.fromEntries(columns.map(([field, column]) => [field, column.type])),
    units: Object.fromEntries(columns.map(([field]) => [field, null])),
    dataset,
    isMetricsData: false,
    isMetricsExtractedData: false,
    tips: {},
  };
  return json({ data, meta }, 200, linkHeader(request, publicUrl, page.nextCursor));
}
