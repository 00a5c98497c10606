/**
 * Per-hour performance rollups (ADR 0022, "Rollups"): for each hour, transaction (or page and web
 * vital), environment and release, the count, failures, sum, last segment and a log-bucket sketch
 * of the durations (values), from which percentiles come with at most SKETCH_ERROR relative error.
 * Written at commit time from the samples a commit stored; read for the full hours of long windows.
 */
import { VITAL_THRESHOLDS, type WebVitalName } from "../model";
import type { PerfSamples } from "./perf-samples";

export const HOUR_MS = 3_600_000;
/** The relative error of a percentile read from a sketch (DDSketch's alpha). */
export const SKETCH_ERROR = 0.01;
const GAMMA = (1 + SKETCH_ERROR) / (1 - SKETCH_ERROR);
const LOG_GAMMA = Math.log(GAMMA);
/** Values at or below this (ms, or CLS' unitless score) count as zero: no bucket reaches it. */
const ZERO = 1e-9;
/** The bucket of zero and anything at or below ZERO. */
const ZERO_BUCKET = -1_000_000;

/**
 * A window's full hours are read from the rollups only when they hold at least this many segments
 * (values): below, the exact samples are read (fast at that size) and percentiles stay exact.
 */
export const ROLLUP_MIN_COUNT = 20_000;

/** A sketch: bucket index → count. */
export type Sketch = Map<number, number>;

export const bucketOf = (value: number): number => (value <= ZERO ? ZERO_BUCKET : Math.ceil(Math.log(value) / LOG_GAMMA));
/** The value a bucket stands for: within SKETCH_ERROR of every value in it. */
export const valueOfBucket = (bucket: number): number => (bucket === ZERO_BUCKET ? 0 : (2 * GAMMA ** bucket) / (GAMMA + 1));

export function addToSketch(sketch: Sketch, value: number, count = 1): void {
  const bucket = bucketOf(value);
  sketch.set(bucket, (sketch.get(bucket) ?? 0) + count);
}

/** Stored as a JSON array of bucket, count pairs, flat: arrays of numbers parse fastest. */
export const encodeSketch = (sketch: Sketch): string => JSON.stringify([...sketch].flat());

export function mergeEncoded(into: Sketch, encoded: string): Sketch {
  const flat = JSON.parse(encoded) as number[];
  for (let i = 0; i < flat.length; i += 2) into.set(flat[i]!, (into.get(flat[i]!) ?? 0) + flat[i + 1]!);
  return into;
}

/**
 * Percentiles `ps` (in [0, 1]) of a sketch that is not empty, interpolated between the nearest
 * ranks as percentile_cont does, each rank's value within SKETCH_ERROR of the exact one.
 */
export function sketchPercentiles(sketch: Sketch, ps: readonly number[]): number[] {
  const buckets = [...sketch.keys()].sort((a, b) => a - b);
  let total = 0;
  for (const count of sketch.values()) total += count;
  const ranks = ps.flatMap((p) => [Math.floor(p * (total - 1)), Math.ceil(p * (total - 1))]);
  const order = ranks.map((_, i) => i).sort((a, b) => ranks[a]! - ranks[b]!);
  const values = new Array<number>(ranks.length).fill(0);
  let seen = 0;
  let next = 0;
  for (const bucket of buckets) {
    seen += sketch.get(bucket)!;
    while (next < order.length && ranks[order[next]!]! < seen) values[order[next++]!] = valueOfBucket(bucket);
    if (next === order.length) break;
  }
  return ps.map((p, i) => {
    const position = p * (total - 1);
    const low = values[2 * i]!;
    return low + (values[2 * i + 1]! - low) * (position - Math.floor(position));
  });
}

export const hourOf = (time: number): number => Math.floor(time / HOUR_MS) * HOUR_MS;

/** A segment rollup's delta (or stored row). */
export interface SegmentRollup {
  projectId: number; hour: number; name: string; environment: string; release: string;
  count: number; failures: number; total: number; lastEnd: number; lastOp: string; sketch: Sketch;
}
/** A web-vital rollup's delta (or stored row). */
export interface VitalRollup {
  projectId: number; hour: number; vital: WebVitalName; page: string; environment: string; release: string;
  count: number; good: number; poor: number; sketch: Sketch;
}

/** A stored segment rollup row's values, as both engines read them. */
export interface StoredSegmentValues { count: number; failures: number; total: number; last_end: number; last_op: string; sketch: string }
/** A stored web-vital rollup row's values. */
export interface StoredVitalValues { count: number; good: number; poor: number; sketch: string }

/** A segment delta added to its stored row (if any): the values to write back. Merges the sketch into the delta's. */
export function mergedSegment(d: SegmentRollup, row: StoredSegmentValues | undefined): [count: number, failures: number, total: number, lastEnd: number, lastOp: string, sketch: string] {
  if (!row) return [d.count, d.failures, d.total, d.lastEnd, d.lastOp, encodeSketch(d.sketch)];
  mergeEncoded(d.sketch, row.sketch);
  const newer = row.last_end > d.lastEnd;
  return [d.count + row.count, d.failures + row.failures, d.total + row.total, newer ? row.last_end : d.lastEnd, newer ? row.last_op : d.lastOp, encodeSketch(d.sketch)];
}

/** A web-vital delta added to its stored row (if any): count, good, poor, sketch to write back. */
export function mergedVital(d: VitalRollup, row: StoredVitalValues | undefined): [count: number, good: number, poor: number, sketch: string] {
  if (row) mergeEncoded(d.sketch, row.sketch);
  return [d.count + (row?.count ?? 0), d.good + (row?.good ?? 0), d.poor + (row?.poor ?? 0), encodeSketch(d.sketch)];
}

/** Sums stored samples into per-hour rollup deltas, one per key, for a commit to add to the stored rows. */
export class RollupDeltas {
  readonly segments = new Map<string, SegmentRollup>();
  readonly vitals = new Map<string, VitalRollup>();

  addSegment(s: PerfSamples["segments"][number]): void {
    const [projectId, end, , , name, op, duration, failed, environment, release] = s;
    const hour = hourOf(end);
    const key = `${projectId}\u0000${hour}\u0000${name}\u0000${environment}\u0000${release}`;
    let at = this.segments.get(key);
    if (!at) {
      at = { projectId, hour, name, environment, release, count: 0, failures: 0, total: 0, lastEnd: end, lastOp: op, sketch: new Map() };
      this.segments.set(key, at);
    }
    at.count++;
    at.failures += failed ? 1 : 0;
    at.total += duration;
    if (end >= at.lastEnd) {
      at.lastEnd = end;
      at.lastOp = op;
    }
    addToSketch(at.sketch, duration);
  }

  addVital(v: PerfSamples["vitals"][number]): void {
    const [projectId, vitalName, end, , , page, value, environment, release] = v;
    if (!Object.hasOwn(VITAL_THRESHOLDS, vitalName)) return;
    const vital = vitalName as WebVitalName;
    const hour = hourOf(end);
    const key = `${projectId}\u0000${hour}\u0000${vital}\u0000${page}\u0000${environment}\u0000${release}`;
    let at = this.vitals.get(key);
    if (!at) this.vitals.set(key, (at = { projectId, hour, vital, page, environment, release, count: 0, good: 0, poor: 0, sketch: new Map() }));
    const { good, poor } = VITAL_THRESHOLDS[vital];
    at.count++;
    if (value <= good) at.good++;
    else if (value > poor) at.poor++;
    addToSketch(at.sketch, value);
  }
}
