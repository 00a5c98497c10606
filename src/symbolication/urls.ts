/**
 * The URLs artifacts are looked up by. Uploads name files as full URLs or as "~/path", where "~"
 * stands for any scheme and host (sentry-cli's `--url-prefix ~/…`), so a frame's abs_path yields
 * several candidates, as Sentry's release-file lookup tries them: the URL as sent, without its query
 * string, and the "~" forms of both. The fragment never takes part.
 */

/** Stands in for "~" while resolving relative references with URL, which needs a host. */
const TILDE_HOST = "periscope-tilde.invalid";
const TILDE_BASE = `http://${TILDE_HOST}`;

/** The lookup candidates for a frame's abs_path (or a map's URL), most specific first, without duplicates. */
export function urlCandidates(path: string): string[] {
  const withoutFragment = path.split("#")[0] ?? path;
  const query = withoutFragment.indexOf("?");
  const bare = query === -1 ? withoutFragment : withoutFragment.slice(0, query);
  const search = query === -1 ? "" : withoutFragment.slice(query);
  const tildePath = tildePathOf(bare);
  const candidates = [withoutFragment, bare];
  if (tildePath !== null) candidates.push(`~${tildePath}${search}`, `~${tildePath}`);
  return [...new Set(candidates)];
}

/** "/static/app.js" for "https://host/static/app.js", "~/static/app.js", "app:///static/app.js" or "/static/app.js". */
function tildePathOf(bare: string): string | null {
  if (bare.startsWith("~/")) return bare.slice(1);
  if (bare.startsWith("/")) return bare;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(bare);
  if (scheme) return scheme[1] ?? "/";
  return null;
}

/**
 * `reference` (a sourceMappingURL or a map's `sources` entry) resolved against the URL of the file
 * that names it; "~" URLs stay "~" URLs. Null when it cannot be resolved (a malformed URL).
 */
export function resolveUrl(base: string, reference: string): string | null {
  const tilde = base.startsWith("~/");
  try {
    const resolved = new URL(reference, tilde ? `${TILDE_BASE}${base.slice(1)}` : /^[a-z][a-z0-9+.-]*:/i.test(base) ? base : `file://${base.startsWith("/") ? "" : "/"}${base}`);
    if (resolved.host === TILDE_HOST && resolved.protocol === "http:") return `~${resolved.pathname}${resolved.search}`;
    if (resolved.protocol === "file:" && !/^file:/i.test(base) && !/^file:/i.test(reference)) return decodeURI(resolved.pathname);
    return resolved.href;
  } catch {
    return null;
  }
}
