/** Percentiles as PostgreSQL's percentile_cont computes them, for the engines that aggregate in JS (ADR 0022). */

/** `sorted` ascending and not empty; `p` in [0, 1]: linear interpolation between the nearest ranks. */
export function percentileOf(sorted: ArrayLike<number>, p: number): number {
  const position = p * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower]!;
  return lower === upper ? low : low + (sorted[upper]! - low) * (position - lower);
}

/** Sorts a Float64Array of durations in place (numeric order, typed arrays sort numerically). */
export const sortedDurations = (values: number[]): Float64Array => Float64Array.from(values).sort();
