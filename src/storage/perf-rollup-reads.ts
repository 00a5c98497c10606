/**
 * The performance overviews aggregated in JS (ADR 0022): SQLite always, PostgreSQL when a window's
 * full hours come from the rollups. Without rollup rows (`rolled` null) percentiles are exact, as
 * percentile_cont computes them; with them, from the merged sketches, within SKETCH_ERROR.
 */
import type { PerfQuery, PerfSeriesPoint, TransactionStats, VitalSeriesPoint, VitalStats, WebVitalName } from "../model";
import { VITAL_THRESHOLDS } from "../model";
import { addToSketch, mergeEncoded, sketchPercentiles, type Sketch } from "./perf-rollups";
import { percentileOf, sortedDurations } from "./perf-stats";

/** A segment sample as the overviews read it; failed 0/1 (or a boolean on PostgreSQL). */
export type NarrowSample = [projectId: number, name: string, op: string, duration: number, failed: number, end: number];
export type NarrowVitalSample = [vital: WebVitalName, page: string, value: number, end: number];

export interface SegmentRollupRow {
  project_id: number; hour: number; name: string; count: number; failures: number; total: number; last_end: number; last_op: string; sketch: string;
}
export interface VitalRollupRow {
  vital: WebVitalName; page: string; hour: number; count: number; good: number; poor: number; sketch: string;
}

export function overviewOf(
  query: PerfQuery, interval: number, rolled: SegmentRollupRow[] | null, edges: Iterable<NarrowSample>,
): { stats: TransactionStats[]; series: PerfSeriesPoint[]; approximate: boolean } {
  type Group = { projectId: number; name: string; op: string; last: number; durations: number[]; failures: number; total: number; count: number; sketch: Sketch | null };
  type Slot = { durations: number[]; failures: number; count: number; sketch: Sketch | null };
  const groups = new Map<string, Group>();
  const slots = new Map<number, Slot>();
  const slotOf = (time: number) => query.start + Math.floor((time - query.start) / interval) * interval;
  const sketched = rolled !== null;
  for (const row of rolled ?? []) {
    const key = `${row.project_id}\u0000${row.name}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { projectId: row.project_id, name: row.name, op: row.last_op, last: row.last_end, durations: [], failures: 0, total: 0, count: 0, sketch: new Map() }));
    group.count += row.count;
    group.failures += row.failures;
    group.total += row.total;
    if (row.last_end >= group.last) {
      group.last = row.last_end;
      group.op = row.last_op;
    }
    const sketch = mergeEncoded(new Map(), row.sketch);
    mergeSketch(group.sketch!, sketch);
    const slot = slotOf(row.hour);
    let at = slots.get(slot);
    if (!at) slots.set(slot, (at = { durations: [], failures: 0, count: 0, sketch: new Map() }));
    at.count += row.count;
    at.failures += row.failures;
    mergeSketch(at.sketch!, sketch);
  }
  for (const [project, name, op, duration, failed, end] of edges) {
    const key = `${project}\u0000${name}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { projectId: project, name, op, last: end, durations: [], failures: 0, total: 0, count: 0, sketch: sketched ? new Map() : null }));
    group.durations.push(duration);
    group.count++;
    group.failures += failed;
    group.total += duration;
    if (end >= group.last) {
      group.last = end;
      group.op = op;
    }
    const slot = slotOf(end);
    let at = slots.get(slot);
    if (!at) slots.set(slot, (at = { durations: [], failures: 0, count: 0, sketch: sketched ? new Map() : null }));
    at.durations.push(duration);
    at.count++;
    at.failures += failed;
  }
  const stats = [...groups.values()].map((group): TransactionStats => {
    const [p50, p75, p95, p99] = percentilesOf(group, [0.5, 0.75, 0.95, 0.99]) as [number, number, number, number];
    return {
      projectId: String(group.projectId), name: group.name, op: group.op, count: group.count, failures: group.failures,
      p50, p75, p95, p99, total: group.total, lastSeen: group.last,
    };
  });
  const series = [...slots.entries()].sort((a, b) => a[0] - b[0]).map(([slot, at]): PerfSeriesPoint => {
    const [p50, p95] = percentilesOf(at, [0.5, 0.95]) as [number, number];
    return { slot, count: at.count, failures: at.failures, p50, p95 };
  });
  return { stats, series, approximate: rolled !== null };
}

export function vitalsOverviewOf(
  query: PerfQuery, interval: number, rolled: VitalRollupRow[] | null, edges: Iterable<NarrowVitalSample>,
): { stats: VitalStats[]; series: VitalSeriesPoint[]; approximate: boolean } {
  // Per vital, pages by name and slots by index: no key is built per value (≈ 150,000 a day at volume).
  type Values = { durations: number[]; count: number; good: number; poor: number; sketch: Sketch | null };
  const vitals = Object.keys(VITAL_THRESHOLDS) as WebVitalName[];
  const pages = new Map(vitals.map((vital) => [vital, new Map<string, Values>()]));
  const slots = new Map(vitals.map((vital) => [vital, [] as Values[]]));
  const fresh = (): Values => ({ durations: [], count: 0, good: 0, poor: 0, sketch: rolled ? new Map() : null });
  for (const row of rolled ?? []) {
    const sketch = mergeEncoded(new Map(), row.sketch);
    const byPage = pages.get(row.vital)!;
    let values = byPage.get(row.page);
    if (!values) byPage.set(row.page, (values = fresh()));
    const bySlot = slots.get(row.vital)!;
    const index = Math.floor((row.hour - query.start) / interval);
    const inSlot = (bySlot[index] ??= fresh());
    for (const into of [values, inSlot]) {
      into.count += row.count;
      into.good += row.good;
      into.poor += row.poor;
      mergeSketch(into.sketch!, sketch);
    }
  }
  for (const [vital, page, value, end] of edges) {
    const { good, poor } = VITAL_THRESHOLDS[vital];
    const byPage = pages.get(vital)!;
    let values = byPage.get(page);
    if (!values) byPage.set(page, (values = fresh()));
    const bySlot = slots.get(vital)!;
    const inSlot = (bySlot[Math.floor((end - query.start) / interval)] ??= fresh());
    for (const into of [values, inSlot]) {
      into.durations.push(value);
      into.count++;
      if (value <= good) into.good++;
      else if (value > poor) into.poor++;
    }
  }
  const stats: VitalStats[] = [];
  const series: VitalSeriesPoint[] = [];
  for (const vital of vitals) {
    for (const [page, values] of pages.get(vital)!) {
      stats.push({
        page, vital, count: values.count, p75: percentilesOf(values, [0.75])[0]!, good: values.good, poor: values.poor,
        needsImprovement: values.count - values.good - values.poor,
      });
    }
    slots.get(vital)!.forEach((values, index) => {
      series.push({ slot: query.start + index * interval, vital, p75: percentilesOf(values, [0.75])[0]!, count: values.count });
    });
  }
  series.sort((a, b) => a.slot - b.slot || a.vital.localeCompare(b.vital));
  return { stats, series, approximate: rolled !== null };
}

function mergeSketch(into: Sketch, from: Sketch): void {
  for (const [bucket, count] of from) into.set(bucket, (into.get(bucket) ?? 0) + count);
}

/** Exact percentiles of the durations alone; from the sketch (with the durations added) when rollups were read. */
function percentilesOf(values: { durations: number[]; sketch: Sketch | null }, ps: readonly number[]): number[] {
  if (values.sketch === null) {
    const sorted = sortedDurations(values.durations);
    return ps.map((p) => percentileOf(sorted, p));
  }
  for (const duration of values.durations) addToSketch(values.sketch, duration);
  return sketchPercentiles(values.sketch, ps);
}
