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
