/** The log-bucket sketch behind the per-hour performance rollups (ADR 0022 "Rollups"). */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { addToSketch, encodeSketch, mergeEncoded, RollupDeltas, SKETCH_ERROR, sketchPercentiles, type Sketch } from "../../src/storage/perf-rollups";

/** percentile_cont, written apart from the code under test. */
function exact(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const low = sorted[Math.floor(rank)]!;
  return low + (sorted[Math.ceil(rank)]! - low) * (rank - Math.floor(rank));
}

const sketchOf = (values: number[]): Sketch => {
  const sketch: Sketch = new Map();
  for (const value of values) addToSketch(sketch, value);
  return sketch;
};

describe("performance rollup sketch", () => {
  it("answers percentiles within 1 % over values spanning seven orders of magnitude", () => {
    // A deterministic spread: 0.01 ms to 100 s, log-uniform, and some repeats.
    const values = Array.from({ length: 5000 }, (_, i) => 10 ** (-2 + (((i * 7919) % 5000) / 5000) * 7));
    values.push(...Array.from({ length: 500 }, () => 250));
    const sketch = sketchOf(values);
    const ps = [0.5, 0.75, 0.95, 0.99, 0, 1];
    const got = sketchPercentiles(sketch, ps);
    ps.forEach((p, i) => {
      const want = exact(values, p);
      assert.ok(Math.abs(got[i]! - want) <= SKETCH_ERROR * want, `p${p * 100}: ${got[i]} vs ${want}`);
    });
    // Not exact: the sketch does lose precision (the test can tell the two apart).
    assert.notEqual(got[0], exact(values, 0.5));
  });

  it("keeps zero apart and merges encoded sketches as if built at once", () => {
    const a = [0, 0, 0.05, 0.1, 0.3];
    const b = [0, 0.2, 0.25, 0.4];
    const merged = mergeEncoded(sketchOf(a), encodeSketch(sketchOf(b)));
    assert.deepEqual([...merged].sort((x, y) => x[0] - y[0]), [...sketchOf([...a, ...b])].sort((x, y) => x[0] - y[0]));
    const [p25] = sketchPercentiles(merged, [0.25]);
    assert.equal(p25, 0);
    const [p75] = sketchPercentiles(merged, [0.75]);
    assert.ok(Math.abs(p75! - exact([...a, ...b], 0.75)) <= SKETCH_ERROR * exact([...a, ...b], 0.75));
  });

  it("sums a batch's samples per hour, transaction, environment and release", () => {
    const deltas = new RollupDeltas();
    const hour = Date.UTC(2026, 10, 20, 12);
    deltas.addSegment([1, hour + 10, "t1", "s1", "GET /a", "http.server", 10, false, "prod", "1", null]);
    deltas.addSegment([1, hour + 20, "t2", "s2", "GET /a", "db", 30, true, "prod", "1", null]);
    deltas.addSegment([1, hour + 3_600_000, "t3", "s3", "GET /a", "http.server", 5, false, "prod", "1", null]);
    deltas.addSegment([1, hour + 30, "t4", "s4", "GET /a", "http.server", 5, false, "staging", "1", null]);
    const first = [...deltas.segments.values()].find((d) => d.hour === hour && d.environment === "prod")!;
    assert.deepEqual([first.count, first.failures, first.total, first.lastEnd, first.lastOp], [2, 1, 40, hour + 20, "db"]);
    assert.equal(deltas.segments.size, 3);
    deltas.addVital([1, "lcp", hour + 5, "t1", "s1", "/", 2500, "prod", "1"]);
    deltas.addVital([1, "lcp", hour + 6, "t2", "s2", "/", 2600, "prod", "1"]);
    deltas.addVital([1, "lcp", hour + 7, "t3", "s3", "/", 4001, "prod", "1"]);
    deltas.addVital([1, "fid", hour + 7, "t3", "s3", "/", 1, "prod", "1"]);
    const lcp = [...deltas.vitals.values()];
    assert.deepEqual(lcp.map((d) => [d.vital, d.count, d.good, d.poor]), [["lcp", 3, 1, 1]]);
  });
});
