import type { PerfQuery, SegmentSampleRow, VitalStats, WebVitalName } from "../../model";
import { VITAL_THRESHOLDS } from "../../model";
import { overviewOf, vitalsOverviewOf, type NarrowSample, type NarrowVitalSample, type SegmentRollupRow, type VitalRollupRow } from "../perf-rollup-reads";
import { HOUR_MS, ROLLUP_MIN_COUNT } from "../perf-rollups";
import type { PerformanceRepo } from "../types";
import { idsOf, type Param, type PgDb } from "./db";

/** The WHERE clause of a performance read and its parameters ($1… in order). */
function whereOf(query: PerfQuery, nameColumn: "name" | "page", time: "end_ts" | "hour" = "end_ts"): { where: string; params: Param[]; p: (value: Param) => string } {
  const params: Param[] = [idsOf(query.projectIds), query.start, query.end];
  const p = (value: Param) => `$${params.push(value)}`;
  const where = ["project_id = ANY($1::bigint[])", `${time} >= $2`, `${time} < $3`];
  if (query.environment !== undefined) where.push(`environment = ${p(query.environment)}`);
  if (query.release !== undefined) where.push(`release = ${p(query.release)}`);
  if (query.name !== undefined) where.push(`${nameColumn} = ${p(query.name)}`);
  return { where: where.join(" AND "), params, p };
}

const PERCENTILES = "percentile_cont(ARRAY[0.5, 0.75, 0.95, 0.99]::float8[]) WITHIN GROUP (ORDER BY duration)";

/** The performance reads on PostgreSQL (ADR 0022): aggregated by the database over the day partitions of the samples. */
export function postgresPerformance(db: PgDb): PerformanceRepo {
  /** The rollups' full hours of the window and the edges around them, or null when the samples are read alone. */
  async function fullHours(query: PerfQuery): Promise<{ hours: PerfQuery; edges: PerfQuery[] } | null> {
    const [since] = await db.query<{ since: number }>("SELECT MAX(since) AS since FROM perf_rollups_since");
    const from = Math.max(Math.ceil(query.start / HOUR_MS) * HOUR_MS, since?.since ?? Infinity);
    const to = Math.floor(query.end / HOUR_MS) * HOUR_MS;
    if (to <= from) return null;
    const edges = [{ ...query, end: from }, { ...query, start: to }].filter((edge) => edge.start < edge.end);
    return { hours: { ...query, start: from, end: to }, edges };
  }
  /** The rollup rows of the window's full hours when they hold ROLLUP_MIN_COUNT or more (ADR 0022 "Rollups"). */
  async function rollupsOf<Row extends { count: number }>(query: PerfQuery, table: "segment_rollups" | "vital_rollups", columns: string) {
    const window = await fullHours(query);
    if (!window) return null;
    const { where, params } = whereOf(window.hours, table === "segment_rollups" ? "name" : "page", "hour");
    const rows = await db.query<Row>(`SELECT ${columns} FROM ${table} WHERE ${where}`, params);
    return rows.reduce((sum, row) => sum + row.count, 0) >= ROLLUP_MIN_COUNT ? { rows, edges: window.edges } : null;
  }

  const repo: PerformanceRepo = {
    async overview(query, interval) {
      const rolled = await rollupsOf<SegmentRollupRow>(query, "segment_rollups", "project_id, hour, name, count, failures, total, last_end, last_op, sketch");
      if (rolled) {
        const edges = await Promise.all(rolled.edges.map(async (edge) => {
          const { where, params } = whereOf(edge, "name");
          const rows = await db.query<{ project_id: number; name: string; op: string; duration: number; failed: number; end_ts: number }>(
            `SELECT project_id, name, op, duration, failed::int AS failed, end_ts FROM segment_samples WHERE ${where}`, params,
          );
          return rows.map((r): NarrowSample => [r.project_id, r.name, r.op, r.duration, r.failed, r.end_ts]);
        }));
        return overviewOf(query, interval, rolled.rows, edges.flat());
      }
      const [stats, series] = await Promise.all([repo.transactions(query), repo.series(query, interval)]);
      return { stats, series, approximate: false };
    },
    async vitalsOverview(query, interval) {
      const rolled = await rollupsOf<VitalRollupRow>(query, "vital_rollups", "vital, page, hour, count, good, poor, sketch");
      if (rolled) {
        const edges = await Promise.all(rolled.edges.map(async (edge) => {
          const { where, params } = whereOf(edge, "page");
          const rows = await db.query<{ vital: WebVitalName; page: string; value: number; end_ts: number }>(
            `SELECT vital, page, value, end_ts FROM vital_samples WHERE ${where} AND vital IN ('lcp', 'inp', 'cls', 'fcp', 'ttfb')`, params,
          );
          return rows.map((r): NarrowVitalSample => [r.vital, r.page, r.value, r.end_ts]);
        }));
        return vitalsOverviewOf(query, interval, rolled.rows.filter((row) => Object.hasOwn(VITAL_THRESHOLDS, row.vital)), edges.flat());
      }
      const [stats, series] = await Promise.all([repo.vitals(query), repo.vitalSeries(query, interval)]);
      return { stats, series, approximate: false };
    },
    async transactions(query) {
      const { where, params } = whereOf(query, "name");
      const rows = await db.query<{ project_id: number; name: string; op: string; count: number; failures: number; q: number[]; total: number; last: number }>(
        `SELECT project_id, name, (array_agg(op ORDER BY end_ts DESC))[1] AS op, COUNT(*)::int AS count,
           COUNT(*) FILTER (WHERE failed)::int AS failures, ${PERCENTILES} AS q, SUM(duration) AS total, MAX(end_ts) AS last
         FROM segment_samples WHERE ${where} GROUP BY project_id, name`,
        params,
      );
      return rows.map((row) => ({
        projectId: String(row.project_id), name: row.name, op: row.op, count: row.count, failures: row.failures,
        p50: row.q[0]!, p75: row.q[1]!, p95: row.q[2]!, p99: row.q[3]!, total: row.total, lastSeen: row.last,
      }));
    },
    async series(query, interval) {
      const { where, params, p } = whereOf(query, "name");
      const rows = await db.query<{ slot: number; count: number; failures: number; q: number[] }>(
        `SELECT $2 + floor((end_ts - $2) / ${p(interval)}) * ${p(interval)} AS slot, COUNT(*)::int AS count,
           COUNT(*) FILTER (WHERE failed)::int AS failures,
           percentile_cont(ARRAY[0.5, 0.95]::float8[]) WITHIN GROUP (ORDER BY duration) AS q
         FROM segment_samples WHERE ${where} GROUP BY 1 ORDER BY 1`,
        params,
      );
      return rows.map((row) => ({ slot: row.slot, count: row.count, failures: row.failures, p50: row.q[0]!, p95: row.q[1]! }));
    },
    async histogram(query, width, buckets) {
      const { where, params, p } = whereOf(query, "name");
      const rows = await db.query<{ bucket: number; count: number }>(
        `SELECT LEAST(floor(duration / ${p(width)}), ${p(buckets - 1)})::int AS bucket, COUNT(*)::int AS count
         FROM segment_samples WHERE ${where} GROUP BY 1`,
        params,
      );
      const counts = new Array<number>(buckets).fill(0);
      for (const row of rows) counts[row.bucket] = row.count;
      return counts;
    },
    async slowest(query, limit) {
      const { where, params, p } = whereOf(query, "name");
      const rows = await db.query<SampleRow>(`SELECT * FROM segment_samples WHERE ${where} ORDER BY duration DESC LIMIT ${p(limit)}`, params);
      return rows.map(toSample);
    },
    async recentTraces(query, limit) {
      const { where, params, p } = whereOf(query, "name");
      const rows = await db.query<{ trace_id: string }>(
        `SELECT trace_id FROM (SELECT trace_id, MAX(end_ts) AS last FROM segment_samples WHERE ${where} GROUP BY trace_id) t
         ORDER BY last DESC LIMIT ${p(limit)}`,
        params,
      );
      return rows.map((row) => row.trace_id);
    },
    async vitals(query) {
      const { where, params } = whereOf(query, "page");
      const out: VitalStats[] = [];
      const rows = await db.query<{ page: string; vital: WebVitalName; count: number; p75: number; values: number[] }>(
        `SELECT page, vital, COUNT(*)::int AS count, percentile_cont(0.75) WITHIN GROUP (ORDER BY value) AS p75, array_agg(value) AS values
         FROM vital_samples WHERE ${where} GROUP BY page, vital`,
        params,
      );
      for (const row of rows) {
        const thresholds = Object.hasOwn(VITAL_THRESHOLDS, row.vital) ? VITAL_THRESHOLDS[row.vital] : null;
        if (!thresholds) continue;
        const good = row.values.filter((value) => value <= thresholds.good).length;
        const poor = row.values.filter((value) => value > thresholds.poor).length;
        out.push({ page: row.page, vital: row.vital, count: row.count, p75: row.p75, good, poor, needsImprovement: row.count - good - poor });
      }
      return out;
    },
    async vitalSeries(query, interval) {
      const { where, params, p } = whereOf(query, "page");
      const rows = await db.query<{ slot: number; vital: WebVitalName; p75: number; count: number }>(
        `SELECT $2 + floor((end_ts - $2) / ${p(interval)}) * ${p(interval)} AS slot, vital,
           percentile_cont(0.75) WITHIN GROUP (ORDER BY value) AS p75, COUNT(*)::int AS count
         FROM vital_samples WHERE ${where} GROUP BY 1, 2 ORDER BY 1, 2`,
        params,
      );
      return rows;
    },
  };
  return repo;
}

interface SampleRow {
  project_id: number;
  end_ts: number;
  trace_id: string;
  span_id: string;
  name: string;
  op: string;
  duration: number;
  failed: boolean;
  environment: string;
  release: string;
  event_id: string | null;
}

function toSample(row: SampleRow): SegmentSampleRow {
  return {
    projectId: String(row.project_id), traceId: row.trace_id, spanId: row.span_id, eventId: row.event_id, name: row.name, op: row.op,
    duration: row.duration, failed: row.failed, end: row.end_ts, environment: row.environment, release: row.release,
  };
}
