import type { PerfQuery, PerfSeriesPoint, SegmentSampleRow, TransactionStats, VitalSeriesPoint, VitalStats, WebVitalName } from "../../model";
import { VITAL_THRESHOLDS } from "../../model";
import { HOUR_MS, ROLLUP_MIN_COUNT } from "../perf-rollups";
import { overviewOf, vitalsOverviewOf, type NarrowSample, type NarrowVitalSample, type SegmentRollupRow, type VitalRollupRow } from "../perf-rollup-reads";
import { percentileOf, sortedDurations } from "../perf-stats";
import type { PerformanceRepo } from "../types";
import type { Db } from "./db";

interface SampleRow {
  project_id: number;
  end_ts: number;
  trace_id: string;
  span_id: string;
  name: string;
  op: string;
  duration: number;
  failed: number;
  environment: string;
  release: string;
  event_id: string | null;
}

type Params = { projectId: number; start: number; end: number; environment: string | null; release: string | null; name: string | null };

const FILTERS = `AND (@environment IS NULL OR environment = @environment) AND (@release IS NULL OR release = @release)`;

/**
 * The performance reads on SQLite (ADR 0022): samples are read per project through the primary key
 * (project, end) or, for one transaction, the (project, name, end) index, and aggregated here —
 * percentiles as percentile_cont computes them on PostgreSQL.
 */
export function sqlitePerformance(db: Db): PerformanceRepo {
  // Every read in two forms: a window of the project (the primary key) or of one transaction, through
  // the name index by name (without statistics SQLite would take the key and filter the whole window).
  const select = (columns: string, tail = "") => ({
    all: db.prepare<[Params & { limit: number }], SampleRow>(
      `SELECT ${columns} FROM segment_samples WHERE project_id = @projectId AND end_ts >= @start AND end_ts < @end ${FILTERS} ${tail}`,
    ),
    named: db.prepare<[Params & { limit: number }], SampleRow>(
      `SELECT ${columns} FROM segment_samples INDEXED BY segment_samples_name
       WHERE project_id = @projectId AND name = @name AND end_ts >= @start AND end_ts < @end ${FILTERS} ${tail}`,
    ),
  });
  const rows = select("*");
  const slowest = select("*", "ORDER BY duration DESC LIMIT @limit");
  const recent = select("trace_id, end_ts", "ORDER BY end_ts DESC LIMIT @limit");
  const which = <T>(pair: { all: T; named: T }, query: PerfQuery) => (query.name === undefined ? pair.all : pair.named);
  const vitalsOf = db.prepare<[Params & { vital: string }], { page: string; value: number; end_ts: number }>(
    `SELECT page, value, end_ts FROM vital_samples WHERE project_id = @projectId AND vital = @vital AND end_ts >= @start AND end_ts < @end ${FILTERS}
       AND (@name IS NULL OR page = @name)`,
  );

  // The overviews read only what they aggregate, as arrays: at 80,000 samples a window, making an
  // object of every row's eleven columns was most of the time.
  type Narrow = NarrowSample;
  const narrow = {
    all: db.prepare<[Params], Narrow>(
      `SELECT project_id, name, op, duration, failed, end_ts FROM segment_samples
       WHERE project_id = @projectId AND end_ts >= @start AND end_ts < @end ${FILTERS}`,
    ).raw(true),
    named: db.prepare<[Params], Narrow>(
      `SELECT project_id, name, op, duration, failed, end_ts FROM segment_samples INDEXED BY segment_samples_name
       WHERE project_id = @projectId AND name = @name AND end_ts >= @start AND end_ts < @end ${FILTERS}`,
    ).raw(true),
  };
  type NarrowVital = NarrowVitalSample;
  const narrowVitals = db.prepare<[Params], NarrowVital>(
    `SELECT vital, page, value, end_ts FROM vital_samples WHERE project_id = @projectId AND vital IN ('lcp', 'inp', 'cls', 'fcp', 'ttfb')
       AND end_ts >= @start AND end_ts < @end ${FILTERS} AND (@name IS NULL OR page = @name)`,
  ).raw(true);

  const paramsOf = (query: PerfQuery, projectId: string): Params => ({
    projectId: Number(projectId), start: query.start, end: query.end,
    environment: query.environment ?? null, release: query.release ?? null, name: query.name ?? null,
  });
  // Rollups (ADR 0022 "Rollups"): the full hours of a window, read when they hold ROLLUP_MIN_COUNT or more.
  const rollupsSince = db.prepare<[], { since: number }>("SELECT MAX(since) AS since FROM perf_rollups_since");
  type Range = { start: number; end: number };
  const FULL_HOUR_FILTERS = `project_id = @projectId AND hour >= @from AND hour < @to ${FILTERS}`;
  const segmentRollups = db.prepare<[Params & { from: number; to: number }], SegmentRollupRow>(
    `SELECT project_id, hour, name, count, failures, total, last_end, last_op, sketch FROM segment_rollups
     WHERE ${FULL_HOUR_FILTERS} AND (@name IS NULL OR name = @name)`,
  );
  const vitalRollups = db.prepare<[Params & { from: number; to: number }], VitalRollupRow>(
    `SELECT vital, page, hour, count, good, poor, sketch FROM vital_rollups
     WHERE ${FULL_HOUR_FILTERS} AND vital IN ('lcp', 'inp', 'cls', 'fcp', 'ttfb') AND (@name IS NULL OR page = @name)`,
  );
  /** The rollups' full hours of the window and the edges around them, or null when the samples are read alone. */
  function fullHours(query: PerfQuery): { from: number; to: number; edges: Range[] } | null {
    const from = Math.max(Math.ceil(query.start / HOUR_MS) * HOUR_MS, rollupsSince.get()?.since ?? Infinity);
    const to = Math.floor(query.end / HOUR_MS) * HOUR_MS;
    if (to <= from) return null;
    return { from, to, edges: [{ start: query.start, end: from }, { start: to, end: query.end }] };
  }
  function rollupsOf(query: PerfQuery): { rows: SegmentRollupRow[]; edges: Range[] } | null {
    const hours = fullHours(query);
    if (!hours) return null;
    const rows = query.projectIds.flatMap((projectId) => segmentRollups.all({ ...paramsOf(query, projectId), from: hours.from, to: hours.to }));
    return rows.reduce((sum, row) => sum + row.count, 0) >= ROLLUP_MIN_COUNT ? { rows, edges: hours.edges } : null;
  }
  function vitalRollupsOf(query: PerfQuery): { rows: VitalRollupRow[]; edges: Range[] } | null {
    const hours = fullHours(query);
    if (!hours) return null;
    const rows = query.projectIds.flatMap((projectId) => vitalRollups.all({ ...paramsOf(query, projectId), from: hours.from, to: hours.to }));
    return rows.reduce((sum, row) => sum + row.count, 0) >= ROLLUP_MIN_COUNT ? { rows, edges: hours.edges } : null;
  }

  function* edgeRows<T>(edges: Range[] | undefined, query: PerfQuery, read: (params: Params) => Iterable<T>): Generator<T> {
    for (const projectId of query.projectIds) {
      for (const range of edges ?? [{ start: query.start, end: query.end }]) yield* read({ ...paramsOf(query, projectId), ...range });
    }
  }

  function* samples(query: PerfQuery): Generator<SampleRow> {
    for (const projectId of query.projectIds) yield* which(rows, query).iterate({ ...paramsOf(query, projectId), limit: -1 });
  }

  return {
    async overview(query, interval) {
      // Long windows at volume: the full hours from the rollups, the edges from the samples.
      const rolled = rollupsOf(query);
      return overviewOf(query, interval, rolled?.rows ?? null, edgeRows(rolled?.edges, query, (params) => which(narrow, query).iterate(params)));
    },
    async vitalsOverview(query, interval) {
      const rolled = vitalRollupsOf(query);
      return vitalsOverviewOf(query, interval, rolled?.rows ?? null, edgeRows(rolled?.edges, query, (params) => narrowVitals.iterate(params)));
    },
    async transactions(query) {
      const groups = new Map<string, { projectId: number; name: string; op: string; last: number; durations: number[]; failures: number; total: number }>();
      for (const row of samples(query)) {
        const key = `${row.project_id}\u0000${row.name}`;
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { projectId: row.project_id, name: row.name, op: row.op, last: row.end_ts, durations: [], failures: 0, total: 0 }));
        group.durations.push(row.duration);
        group.failures += row.failed;
        group.total += row.duration;
        if (row.end_ts >= group.last) {
          group.last = row.end_ts;
          group.op = row.op;
        }
      }
      return [...groups.values()].map((group): TransactionStats => {
        const sorted = sortedDurations(group.durations);
        return {
          projectId: String(group.projectId), name: group.name, op: group.op, count: sorted.length, failures: group.failures,
          p50: percentileOf(sorted, 0.5), p75: percentileOf(sorted, 0.75), p95: percentileOf(sorted, 0.95), p99: percentileOf(sorted, 0.99),
          total: group.total, lastSeen: group.last,
        };
      });
    },
    async series(query, interval) {
      const slots = new Map<number, { durations: number[]; failures: number }>();
      for (const row of samples(query)) {
        const slot = query.start + Math.floor((row.end_ts - query.start) / interval) * interval;
        let at = slots.get(slot);
        if (!at) slots.set(slot, (at = { durations: [], failures: 0 }));
        at.durations.push(row.duration);
        at.failures += row.failed;
      }
      return [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([slot, at]): PerfSeriesPoint => {
        const sorted = sortedDurations(at.durations);
        return { slot, count: sorted.length, failures: at.failures, p50: percentileOf(sorted, 0.5), p95: percentileOf(sorted, 0.95) };
      });
    },
    async histogram(query, width, buckets) {
      const counts = new Array<number>(buckets).fill(0);
      for (const row of samples(query)) counts[Math.min(Math.floor(row.duration / width), buckets - 1)]! += 1;
      return counts;
    },
    async slowest(query, limit) {
      const found = query.projectIds.flatMap((projectId) => which(slowest, query).all({ ...paramsOf(query, projectId), limit }));
      return found.sort((a, b) => b.duration - a.duration).slice(0, limit).map(toSample);
    },
    async recentTraces(query, limit) {
      const found = query.projectIds.flatMap((projectId) => which(recent, query).all({ ...paramsOf(query, projectId), limit }));
      return [...new Set(found.sort((a, b) => b.end_ts - a.end_ts).map((row) => row.trace_id))].slice(0, limit);
    },
    async vitals(query) {
      const out: VitalStats[] = [];
      for (const vital of Object.keys(VITAL_THRESHOLDS) as WebVitalName[]) {
        const pages = new Map<string, number[]>();
        for (const projectId of query.projectIds) {
          for (const row of vitalsOf.iterate({ ...paramsOf(query, projectId), vital })) {
            const values = pages.get(row.page);
            if (values) values.push(row.value);
            else pages.set(row.page, [row.value]);
          }
        }
        const { good, poor } = VITAL_THRESHOLDS[vital];
        for (const [page, values] of pages) {
          const sorted = sortedDurations(values);
          let goodCount = 0;
          let poorCount = 0;
          for (const value of sorted) {
            if (value <= good) goodCount++;
            else if (value > poor) poorCount++;
          }
          out.push({
            page, vital, count: sorted.length, p75: percentileOf(sorted, 0.75), good: goodCount, poor: poorCount,
            needsImprovement: sorted.length - goodCount - poorCount,
          });
        }
      }
      return out;
    },
    async vitalSeries(query, interval) {
      const out: VitalSeriesPoint[] = [];
      for (const vital of Object.keys(VITAL_THRESHOLDS) as WebVitalName[]) {
        const slots = new Map<number, number[]>();
        for (const projectId of query.projectIds) {
          for (const row of vitalsOf.iterate({ ...paramsOf(query, projectId), vital })) {
            const slot = query.start + Math.floor((row.end_ts - query.start) / interval) * interval;
            const values = slots.get(slot);
            if (values) values.push(row.value);
            else slots.set(slot, [row.value]);
          }
        }
        for (const [slot, values] of [...slots.entries()].sort((a, b) => a[0] - b[0])) {
          out.push({ slot, vital, p75: percentileOf(sortedDurations(values), 0.75), count: values.length });
        }
      }
      return out;
    },
  };
}

function toSample(row: SampleRow): SegmentSampleRow {
  return {
    projectId: String(row.project_id), traceId: row.trace_id, spanId: row.span_id, eventId: row.event_id, name: row.name, op: row.op,
    duration: row.duration, failed: row.failed === 1, end: row.end_ts, environment: row.environment, release: row.release,
  };
}
