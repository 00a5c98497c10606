"use client";

import "uplot/dist/uPlot.min.css";
import { useEffect, useId, useRef, useState } from "react";
import type uPlot from "uplot";
import { formatAbsolute } from "../format";
import { stackValues } from "./chart-data";

export interface ChartSeries {
  label: string;
  /** `#rrggbb`, readable on both themes. */
  color: string;
  /** One value per point of `x`. */
  values: readonly number[];
}

/**
 * The one chart of the UI (docs/adr/0016-charts.md): time series over uPlot, as lines or stacked
 * areas. The server renders the frame at its final height, the legend (each series' total) and a
 * data table for screen readers, so nothing moves when uPlot draws the canvas after hydration; the
 * legend then follows the cursor. uPlot is loaded on demand, keeping it out of the page's first load.
 */
export function Chart({
  x,
  series,
  title,
  stacked = false,
  height = 220,
  xLabel = "Time (UTC)",
}: {
  /** Start of each point, Unix ms. */
  x: readonly number[];
  series: readonly ChartSeries[];
  /** What the chart shows, for its accessible name and the data table's caption. */
  title: string;
  stacked?: boolean;
  height?: number;
  xLabel?: string;
}) {
  const frame = useRef<HTMLDivElement>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [drawn, setDrawn] = useState(0);
  const tableId = useId();

  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      const ink = getComputedStyle(element).color;
      const grid = { stroke: "rgba(127,127,127,0.18)", width: 1 };
      const values = stacked ? stackValues(series.map((entry) => entry.values)) : series.map((entry) => [...entry.values]);
      // Steps hold each value until the next point: one more point, an interval on, gives the last
      // interval its width.
      const step = x.length > 1 ? x[x.length - 1]! - x[x.length - 2]! : 0;
      const xs = step > 0 ? [...x, x[x.length - 1]! + step] : [...x];
      const data: uPlot.AlignedData = [xs.map((ms) => ms / 1000), ...values.map((row) => (step > 0 ? [...row, row[row.length - 1] ?? 0] : row))];
      const options: uPlot.Options = {
        width: Math.max(element.clientWidth, 200),
        height,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
        scales: { y: { range: (_plot, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          { stroke: ink, grid, ticks: grid },
          { stroke: ink, grid, ticks: grid, size: 56 },
        ],
        series: [
          {},
          ...series.map((entry) => ({
            label: entry.label,
            stroke: entry.color,
            width: 1.5,
            fill: stacked ? `${entry.color}59` : undefined,
            points: { show: false },
            // A value counts its whole interval: hold it until the next point.
            paths: UPlot.paths.stepped?.({ align: 1 }),
          })),
        ],
        // Each stacked area fills down to the one below it, not to zero.
        bands: stacked ? series.slice(1).map((_entry, index) => ({ series: [index + 2, index + 1] as [number, number] })) : undefined,
        hooks: { setCursor: [(self) => setCursor(self.cursor.idx == null ? null : Math.min(self.cursor.idx, x.length - 1))] },
      };
      plot = new UPlot(options, data, element);
      setDrawn(series.length);
      observer = new ResizeObserver(() => plot?.setSize({ width: Math.max(element.clientWidth, 200), height }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [x, series, stacked, height]);

  const totals = series.map((entry) => entry.values.reduce((sum, value) => sum + value, 0));
  const summary = series.map((entry, index) => `${entry.label} ${totals[index]}`).join(", ");
  const shown = x.flatMap((at, index) => (series.some((entry) => (entry.values[index] ?? 0) !== 0) ? [index] : []));

  return (
    <figure className="min-w-0" data-testid="chart" data-series={series.length} data-drawn-series={drawn || undefined}>
      <div
        ref={frame}
        role="img"
        aria-label={`${title}. Totals: ${summary}. The table below has the values.`}
        className="w-full overflow-hidden text-subtle"
        style={{ height }}
      />
      <figcaption>
        <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Legend" data-testid="chart-legend">
          {/* A slot of fixed width, so the entries do not move when the cursor enters the chart. */}
          <li className="min-w-[11.5rem] text-subtle tabular-nums" aria-live="off">
            {cursor !== null && x[cursor] !== undefined ? formatAbsolute(x[cursor]) : "Totals of the range"}
          </li>
          {series.map((entry, index) => (
            <li key={entry.label} className="flex items-center gap-1.5" data-testid="chart-legend-item">
              <span aria-hidden className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: entry.color }} />
              <span className="text-muted">{entry.label}</span>
              <span className="font-medium tabular-nums">{cursor !== null ? (entry.values[cursor] ?? 0) : totals[index]}</span>
            </li>
          ))}
        </ul>
        <details className="mt-2 text-xs">
          <summary className="cursor-pointer text-muted hover:text-fg" aria-controls={tableId}>
            Show the data as a table
          </summary>
          <div className="mt-2 max-h-72 overflow-auto">
            <table id={tableId} className="w-full text-left tabular-nums" data-testid="chart-table">
              <caption className="sr-only">{title}</caption>
              <thead>
                <tr className="text-subtle">
                  <th scope="col" className="px-2 py-1 font-medium">
                    {xLabel}
                  </th>
                  {series.map((entry) => (
                    <th key={entry.label} scope="col" className="px-2 py-1 text-right font-medium">
                      {entry.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((index) => (
                  <tr key={x[index]} className="border-t border-line">
                    <th scope="row" className="px-2 py-1 font-normal text-muted">
                      {formatAbsolute(x[index]!)}
                    </th>
                    {series.map((entry) => (
                      <td key={entry.label} className="px-2 py-1 text-right">
                        {entry.values[index] ?? 0}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {shown.length === 0 ? <p className="px-2 py-1 text-subtle">No values in this range.</p> : <p className="px-2 py-1 text-subtle">Intervals with nothing are left out.</p>}
          </div>
        </details>
      </figcaption>
    </figure>
  );
}
