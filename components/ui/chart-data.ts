/** Pure helpers of components/ui/chart.tsx (no DOM), unit-tested on their own. */

/** Cumulative sums, bottom series first: what a stacked area chart draws. */
export function stackValues(series: readonly (readonly number[])[]): number[][] {
  const sums = (series[0] ?? []).map(() => 0);
  return series.map((values) => values.map((value, index) => (sums[index] = (sums[index] ?? 0) + value)));
}
