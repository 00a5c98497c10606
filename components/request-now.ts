import { cache } from "react";

/**
 * One "now" per request: every relative time and the 24-hour buckets on a page are computed from
 * the same instant, so a page never disagrees with itself ("just now" next to "1min ago").
 */
export const requestNow = cache((): number => Date.now());
