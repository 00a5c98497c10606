/**
 * The performance views (issue 36): the transactions of projects with their duration percentiles and
 * failure rates, one transaction's summary, and web vitals per page — over a time window, from the
 * samples written at commit time (ADR 0022).
 */
import type {
  Issue, PerfQuery, PerfSeriesPoint, Project, SegmentSampleRow, StoredSpan, TransactionStats, VitalStats, WebVitalName,
} from "../../model";
import { VITAL_THRESHOLDS } from "../../model";
import type { Storage } from "../../storage/types";

const MINUTE = 60_000;

export interface PerfWindow {
  start: number;
  end: number;
  environment?: string;
  release?: string;
}

export interface TransactionRow extends TransactionStats {
  /** Per minute over the window. */
  throughput: number;
  /** failures / count. */
  failureRate: number;
}

export interface PerfSeries {
  /** Start of each interval (Unix ms), the window cut into `interval`s. */
  x: number[];
  interval: number;
  throughput: number[];
  p50: (number | null)[];
  p95: (number | null)[];
  failureRate: (number | null)[];
}

const queryOf = (projects: Project[], window: PerfWindow, name?: string): PerfQuery => ({
  projectIds: projects.map((project) => project.id), start: window.start, end: window.end,
  ...(window.environment ? { environment: window.environment } : {}), ...(window.release ? { release: window.release } : {}),
  ...(name !== undefined ? { name } : {}),
});

export const withRates = (stats: TransactionStats, window: PerfWindow): TransactionRow => ({
  ...stats, throughput: stats.count / Math.max((window.end - window.start) / MINUTE, 1 / 60), failureRate: stats.count === 0 ? 0 : stats.failures / stats.count,
});

function seriesOf(points: PerfSeriesPoint[], window: PerfWindow, interval: number): PerfSeries {
  const x: number[] = [];
  for (let at = window.start; at < window.end; at += interval) x.push(at);
  const bySlot = new Map(points.map((point) => [point.slot, point]));
  const at = (slot: number) => bySlot.get(slot);
  return {
    x, interval,
    throughput: x.map((slot) => (at(slot)?.count ?? 0) / (interval / MINUTE)),
    p50: x.map((slot) => at(slot)?.p50 ?? null),
    p95: x.map((slot) => at(slot)?.p95 ?? null),
    failureRate: x.map((slot) => {
      const point = at(slot);
      return point ? point.failures / point.count : null;
    }),
  };
}

/** Every transaction of these projects in the window, unsorted, with the window's throughput and p95 series. */
/** `approximate`: the percentiles came from per-hour sketches, within 1 % (a long window at volume, ADR 0022 "Rollups"). */
export async function transactionsReport(
  storage: Storage, projects: Project[], window: PerfWindow, interval: number,
): Promise<{ rows: TransactionRow[]; series: PerfSeries; approximate: boolean }> {
  if (projects.length === 0) return { rows: [], series: seriesOf([], window, interval), approximate: false };
  const query = queryOf(projects, window);
  const { stats, series, approximate } = await storage.performance.overview(query, interval);
  return { rows: stats.map((row) => withRates(row, window)), series: seriesOf(series, window, interval), approximate };
}

export interface SpanOpTime {
  op: string;
  description: string;
  count: number;
  /** Sum of the spans' self time (their duration less the time covered by their children), ms. */
  totalSelf: number;
  averageSelf: number;
}

export interface TransactionSummary {
  stats: TransactionRow | null;
  series: PerfSeries;
  histogram: { width: number; counts: number[] };
  slowest: SegmentSampleRow[];
  spanOps: SpanOpTime[];
  /** How many spans the span operations were computed from (those of the most recent traces). */
  spanOpsFrom: number;
  relatedIssues: { issue: Issue; events: number }[];
  /** The percentiles came from per-hour sketches, within 1 % (ADR 0022 "Rollups"). */
  approximate: boolean;
}

const sum = <T>(rows: T[], of: (row: T) => number) => rows.reduce((total, row) => total + of(row), 0);

const HISTOGRAM_BUCKETS = 20;
/** Span operations come from the spans of this many of the transaction's most recent traces (each read by its key). */
const SPAN_OPS_TRACES = 25;
/** Related issues are looked for in this many of the most recent traces. */
const RELATED_TRACES = 200;

/** A bucket width of 1, 2 or 5 × 10ⁿ ms that puts the p99 (or the longest) within the buckets. */
export function histogramWidth(upTo: number, buckets: number): number {
  const raw = Math.max(upTo, 1) / buckets;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const step of [1, 2, 5, 10]) if (step * power >= raw) return step * power;
  return 10 * power;
}

export async function transactionSummary(storage: Storage, projects: Project[], window: PerfWindow, name: string, interval: number): Promise<TransactionSummary> {
  const query = queryOf(projects, window, name);
  const empty = {
    stats: null, series: seriesOf([], window, interval), histogram: { width: 1, counts: [] }, slowest: [], spanOps: [], spanOpsFrom: 0, relatedIssues: [],
    approximate: false,
  };
  if (projects.length === 0) return empty;
  const [{ stats, series: points, approximate }, slowest, traces] = await Promise.all([
    storage.performance.overview(query, interval),
    storage.performance.slowest(query, 10),
    storage.performance.recentTraces(query, RELATED_TRACES),
  ]);
  if (stats.length === 0) return empty;
  // The page asks for one project; given several, a name they share is summed and the busiest one's percentiles shown.
  const busiest = stats.reduce((a, b) => (b.count > a.count ? b : a));
  const merged: TransactionStats = {
    ...busiest, count: sum(stats, (row) => row.count), failures: sum(stats, (row) => row.failures), total: sum(stats, (row) => row.total),
    lastSeen: Math.max(...stats.map((row) => row.lastSeen)),
  };
  const width = histogramWidth(merged.p99, HISTOGRAM_BUCKETS);
  const projectIds = projects.map((project) => project.id);
  // A trace's spans come by its key, fast on both engines at any volume; a list filtered by the
  // transaction's name walked the project's spans newest first (≈ 300 ms on PostgreSQL at 200,000).
  const [counts, traceSpans, issueCounts] = await Promise.all([
    storage.performance.histogram(query, width, HISTOGRAM_BUCKETS),
    Promise.all(traces.slice(0, SPAN_OPS_TRACES).map((traceId) => storage.spans.trace(projectIds, traceId))),
    storage.events.issuesOfTraces(projectIds, traces),
  ]);
  const relatedIssues: { issue: Issue; events: number }[] = [];
  for (const { issueId, events } of issueCounts.slice(0, 20)) {
    const issue = await storage.issues.getById(issueId);
    if (issue && projectIds.includes(issue.projectId)) relatedIssues.push({ issue, events });
  }
  const inWindow = traceSpans.flat().filter((span) => span.segmentName === name);
  return {
    stats: withRates(merged, window), series: seriesOf(points, window, interval), histogram: { width, counts }, slowest,
    spanOps: spanOpTimes(inWindow), spanOpsFrom: inWindow.length, relatedIssues, approximate,
  };
}

/**
 * A span description with its variable parts replaced, so the same query or request with other
 * values is one row: quoted strings and numbers become `?`, hex ids and UUIDs `*`, IN lists `(?)`.
 */
export function normalizedDescription(description: string): string {
  return description
    .replace(/'(?:[^']|'')*'/g, "?")
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "*")
    .replace(/\b[0-9a-f]{16,}\b/gi, "*")
    .replace(/\b\d+(\.\d+)?\b/g, "?")
    .replace(/\(\s*\?(\s*,\s*\?)+\s*\)/g, "(?)")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 300);
}

/** Self time: a span's time not covered by any of its children (in `spans`). */
export function spanOpTimes(spans: StoredSpan[]): SpanOpTime[] {
  const children = new Map<string, StoredSpan[]>();
  for (const span of spans) {
    if (span.parentSpanId === null) continue;
    const key = `${span.traceId}:${span.parentSpanId}`;
    const list = children.get(key);
    if (list) list.push(span);
    else children.set(key, [span]);
  }
  const groups = new Map<string, SpanOpTime>();
  for (const span of spans) {
    const covered = coveredTime(span, children.get(`${span.traceId}:${span.spanId}`) ?? []);
    const self = Math.max(span.end - span.start - covered, 0);
    const op = span.op ?? "default";
    const description = normalizedDescription(span.name);
    const key = `${op}\u0000${description}`;
    const group = groups.get(key) ?? { op, description, count: 0, totalSelf: 0, averageSelf: 0 };
    group.count += 1;
    group.totalSelf += self;
    groups.set(key, group);
  }
  return [...groups.values()]
    .map((group) => ({ ...group, averageSelf: group.totalSelf / group.count }))
    .sort((a, b) => b.totalSelf - a.totalSelf)
    .slice(0, 20);
}

/** The length of the union of the children's intervals, clipped to the span's. */
function coveredTime(span: StoredSpan, kids: StoredSpan[]): number {
  const intervals = kids
    .map((kid) => [Math.max(kid.start, span.start), Math.min(kid.end, span.end)] as const)
    .filter(([from, to]) => to > from)
    .sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let reach = -Infinity;
  for (const [from, to] of intervals) {
    if (to <= reach) continue;
    covered += to - Math.max(from, reach);
    reach = to;
  }
  return covered;
}

export type VitalRating = "good" | "needs-improvement" | "poor";

export const ratingOf = (vital: WebVitalName, value: number): VitalRating =>
  value <= VITAL_THRESHOLDS[vital].good ? "good" : value > VITAL_THRESHOLDS[vital].poor ? "poor" : "needs-improvement";

export interface VitalPage {
  page: string;
  vitals: Partial<Record<WebVitalName, VitalStats & { rating: VitalRating }>>;
  /** Poor vitals count 2, needing improvement 1: the worst pages first. */
  score: number;
  samples: number;
}

export interface WebVitalsReport {
  pages: VitalPage[];
  /** Across every page: p75 and bands per vital (weighted by samples). */
  overall: Partial<Record<WebVitalName, { count: number; good: number; needsImprovement: number; poor: number }>>;
  trend: { x: number[]; interval: number; p75: Record<WebVitalName, (number | null)[]> };
  /** The p75s came from per-hour sketches, within 1 % (ADR 0022 "Rollups"). */
  approximate: boolean;
}

export const WEB_VITAL_ORDER: WebVitalName[] = ["lcp", "inp", "cls", "fcp", "ttfb"];

export async function webVitalsReport(storage: Storage, projects: Project[], window: PerfWindow, interval: number, page?: string): Promise<WebVitalsReport> {
  const x: number[] = [];
  for (let at = window.start; at < window.end; at += interval) x.push(at);
  const emptyTrend = Object.fromEntries(WEB_VITAL_ORDER.map((vital) => [vital, x.map(() => null)])) as Record<WebVitalName, (number | null)[]>;
  if (projects.length === 0) return { pages: [], overall: {}, trend: { x, interval, p75: emptyTrend }, approximate: false };
  const query = queryOf(projects, window, page);
  const { stats, series: points, approximate } = await storage.performance.vitalsOverview(query, interval);
  const pages = new Map<string, VitalPage>();
  const overall: WebVitalsReport["overall"] = {};
  for (const row of stats) {
    const entry = pages.get(row.page) ?? { page: row.page, vitals: {}, score: 0, samples: 0 };
    const rating = ratingOf(row.vital, row.p75);
    entry.vitals[row.vital] = { ...row, rating };
    entry.score += rating === "poor" ? 2 : rating === "needs-improvement" ? 1 : 0;
    entry.samples = Math.max(entry.samples, row.count);
    pages.set(row.page, entry);
    const total = overall[row.vital] ?? { count: 0, good: 0, needsImprovement: 0, poor: 0 };
    total.count += row.count;
    total.good += row.good;
    total.needsImprovement += row.needsImprovement;
    total.poor += row.poor;
    overall[row.vital] = total;
  }
  const trend = { ...emptyTrend };
  for (const vital of WEB_VITAL_ORDER) {
    const bySlot = new Map(points.filter((point) => point.vital === vital).map((point) => [point.slot, point.p75]));
    trend[vital] = x.map((slot) => bySlot.get(slot) ?? null);
  }
  return {
    pages: [...pages.values()].sort((a, b) => b.score - a.score || b.samples - a.samples || a.page.localeCompare(b.page)),
    overall, trend: { x, interval, p75: trend }, approximate,
  };
}
