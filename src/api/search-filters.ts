/**
 * `key:value` filters from a Sentry search `query` (`release:"1.0 beta" environment:prod`) for the
 * endpoints that accept a few exact filters and nothing else: any other token is a 400 naming it,
 * so an unsupported search never silently returns everything.
 */
import { AppError } from "../errors";

/** Quoted values may contain spaces: `release:"1.0 beta"`. */
const TOKEN = /(?:[^\s"]+|"[^"]*")+/g;
const FILTER = /^([a-z_.]+):(.+)$/;

const unquote = (value: string) => (value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value);

export function searchFiltersOf<Key extends string>(query: string, allowed: readonly Key[]): Map<Key, string[]> {
  const filters = new Map<Key, string[]>();
  for (const token of query.match(TOKEN) ?? []) {
    const match = FILTER.exec(token);
    const key = match?.[1] as Key | undefined;
    if (!match || key === undefined || !allowed.includes(key)) {
      throw new AppError("bad_request", `invalid query: unsupported token ${token} (supported: ${allowed.map((name) => `${name}:…`).join(", ")})`);
    }
    filters.set(key, [...(filters.get(key) ?? []), unquote(match[2] ?? "")]);
  }
  return filters;
}
