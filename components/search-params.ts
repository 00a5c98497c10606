/** Next hands repeated query parameters over as arrays; the pages use the first value of each. */
export type RawSearchParams = Record<string, string | string[] | undefined>;

export function firstValues(raw: RawSearchParams): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
}

/** `path?query` with only the parameters that have a value. */
export function hrefWith(path: string, params: Record<string, string | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * A dynamic path segment as the page should use it: App Router hands pages the segment still
 * percent-encoded ("shop%401.4.0" for "shop@1.4.0"); one that cannot be decoded is used as it is.
 */
export function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
