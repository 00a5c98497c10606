/**
 * The pure parts behind the stats page: the URL's time range (with clear messages for bad input),
 * the chart resolution, outcome bucketing into intervals, and stacking for the chart.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { stackValues } from "../../components/ui/chart-data";
import { intervalFor, parseTimeRange, timeRangeParams } from "../../components/ui/time-range";
import type { OutcomeHour } from "../../src/model";
import { summarizeOutcomes } from "../../src/services/telemetry/outcome-stats";
import { alignedWindow } from "../../src/services/telemetry/stats-window";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 27, 12, 30);

describe("time range from the URL", () => {
  test("nothing given is the last 24 hours", () => {
    assert.deepEqual(parseTimeRange({}, NOW), { ok: true, range: { kind: "period", period: "24h" }, start: NOW - DAY, end: NOW });
  });

  test("a period and a custom range of whole days (the end day included)", () => {
    const week = parseTimeRange({ statsPeriod: "7d" }, NOW);
    assert.ok(week.ok);
    assert.equal(week.end - week.start, 7 * DAY);
    const custom = parseTimeRange({ start: "2026-11-01", end: "2026-11-03" }, NOW);
    assert.deepEqual(custom, { ok: true, range: { kind: "absolute", start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 10, 4) }, start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 10, 4) });
    assert.ok(custom.ok);
    assert.deepEqual(timeRangeParams(custom.range), { start: "2026-11-01", end: "2026-11-03" });
    assert.deepEqual(timeRangeParams({ kind: "period", period: "24h" }), {});
    assert.deepEqual(timeRangeParams({ kind: "period", period: "30d" }), { statsPeriod: "30d" });
    const exact = parseTimeRange({ start: "2026-11-01T06:00:00Z", end: "2026-11-01T18:00:00" }, NOW);
    assert.ok(exact.ok);
    assert.equal(exact.end - exact.start, 12 * HOUR);
    assert.deepEqual(timeRangeParams(exact.range), { start: "2026-11-01T06:00:00.000Z", end: "2026-11-01T18:00:00.000Z" });
  });

  const bad: [Record<string, string>, RegExp][] = [
    [{ statsPeriod: "forever" }, /Invalid time range "forever": use a number and a unit/],
    [{ statsPeriod: "24" }, /Invalid time range "24"/],
    [{ statsPeriod: "0h" }, /longer than zero/],
    [{ statsPeriod: "91d" }, /at most 90 days/],
    [{ start: "2026-11-01" }, /needs both a start and an end date/],
    [{ end: "2026-11-01" }, /needs both a start and an end date/],
    [{ start: "yesterday", end: "2026-11-01" }, /Invalid start date "yesterday": expected a date like 2026-11-20/],
    [{ start: "2026-11-01", end: "2026-13-45" }, /Invalid end date "2026-13-45"/],
    [{ start: "2026-11-05", end: "2026-11-01" }, /end date must be after the start date/],
    [{ start: "2026-01-01", end: "2026-11-01" }, /at most 90 days/],
    [{ statsPeriod: "7d", start: "2026-11-01", end: "2026-11-02" }, /not both/],
  ];
  for (const [params, message] of bad) {
    test(`refuses ${JSON.stringify(params)} with a message`, () => {
      const parsed = parseTimeRange(params, NOW);
      assert.equal(parsed.ok, false);
      assert.match(parsed.ok ? "" : parsed.message, message);
    });
  }

  test("chart resolution: hourly to a week, 6-hourly to 30 days, then daily", () => {
    assert.equal(intervalFor(DAY), HOUR);
    assert.equal(intervalFor(7 * DAY), HOUR);
    assert.equal(intervalFor(8 * DAY), 6 * HOUR);
    assert.equal(intervalFor(30 * DAY), 6 * HOUR);
    assert.equal(intervalFor(90 * DAY), DAY);
  });
});

describe("outcome bucketing", () => {
  const window = alignedWindow(NOW - 6 * HOUR, NOW, 2 * HOUR, NOW);
  const hour = (h: number) => Date.UTC(2026, 10, 27, h);
  const row = (h: number, outcome: OutcomeHour["outcome"], category: string, quantity: number, reason: string | null = null): OutcomeHour => ({
    projectId: "1",
    hour: hour(h),
    outcome,
    category,
    reason,
    quantity,
  });

  test("the window is aligned to whole intervals", () => {
    assert.deepEqual(window, { start: hour(6), end: hour(14), interval: 2 * HOUR });
  });

  test("sums a category per interval; dropped reasons over every category", () => {
    const report = summarizeOutcomes(
      [
        row(6, "accepted", "error", 2),
        row(7, "accepted", "default", 3), // default counts as error, same 2-hour interval
        row(9, "accepted", "security", 1),
        row(13, "client_discard", "error", 4, "queue_overflow"),
        row(12, "client_discard", "error", 1, "queue_overflow"),
        row(12, "invalid", "error", 1, "invalid_json"),
        row(12, "client_discard", "transaction", 2, "sample_rate"),
        row(10, "accepted", "transaction", 9),
        row(5, "accepted", "error", 100), // before the window
        row(14, "accepted", "error", 100), // after it
      ],
      window,
      "error",
    );
    assert.deepEqual(report.intervals, [hour(6), hour(8), hour(10), hour(12)]);
    assert.deepEqual(report.series.accepted, [5, 1, 0, 0]);
    assert.deepEqual(report.series.client_discard, [0, 0, 0, 5]);
    assert.deepEqual(report.series.invalid, [0, 0, 0, 1]);
    assert.deepEqual(report.totals, { accepted: 6, filtered: 0, rate_limited: 0, invalid: 1, client_discard: 5, unsupported: 0 });
    assert.deepEqual(report.dropped, [
      { outcome: "client_discard", reason: "queue_overflow", category: "error", quantity: 5 },
      { outcome: "client_discard", reason: "sample_rate", category: "transaction", quantity: 2 },
      { outcome: "invalid", reason: "invalid_json", category: "error", quantity: 1 },
    ]);
    assert.deepEqual(report.categories, ["error", "transaction"]);
  });

  test("an unknown category has zero everywhere", () => {
    const report = summarizeOutcomes([row(6, "accepted", "error", 2)], window, "replay");
    assert.deepEqual(report.series.accepted, [0, 0, 0, 0]);
    assert.equal(report.totals.accepted, 0);
  });
});

test("stacking sums the series bottom up", () => {
  assert.deepEqual(stackValues([[1, 0, 2], [3, 1, 0], [0, 5, 1]]), [[1, 0, 2], [4, 1, 2], [4, 6, 3]]);
  assert.deepEqual(stackValues([]), []);
});
