/**
 * What an original source in a map becomes on the frame: its abs_path (the `sources` entry
 * resolved against the map's URL), a short filename without scheme, host or bundler prefix, and
 * whether it is the app's own code. Follows Sentry's JavaScript processing: anything under
 * node_modules (or webpack's "~/" alias for it, or webpack's own runtime) is not in-app.
 */
import { resolveUrl } from "./urls";

export interface OriginalPath {
  absPath: string;
  filename: string;
  inApp: boolean;
}

/** Bundler schemes whose first path segment is a namespace (webpack://my-app/./src/x.js). */
const NAMESPACED = /^(?:webpack|webpack-internal|turbopack|rollup|vite):\/\/[^/]*\//i;

export function originalPathOf(source: string, sourceRoot: string | undefined, mapUrl: string | null): OriginalPath {
  const joined = sourceRoot && !/^[a-z][a-z0-9+.-]*:/i.test(source) && !source.startsWith("/") ? `${sourceRoot.replace(/\/?$/, "/")}${source}` : source;
  const isAbsolute = /^[a-z][a-z0-9+.-]*:/i.test(joined) || joined.startsWith("/") || joined.startsWith("~/");
  const absPath = isAbsolute || mapUrl === null ? joined : (resolveUrl(mapUrl, joined) ?? joined);
  return { absPath, filename: filenameOf(absPath), inApp: inAppOf(absPath) };
}

function filenameOf(absPath: string): string {
  const path = absPath
    .replace(NAMESPACED, "")
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "")
    .replace(/^~(?=\/)/, "")
    .replace(/[?#].*$/, "");
  const cleaned = path.replace(/^(?:\.?\/)+/, "");
  return cleaned === "" ? absPath : cleaned;
}

function inAppOf(absPath: string): boolean {
  if (/(?:^|[/\\])node_modules[/\\]/.test(absPath)) return false;
  // webpack's "~/" is node_modules; "(webpack)" and "webpack/bootstrap" are its runtime.
  if (/^webpack:\/\/[^/]*\/~\//i.test(absPath) || /\(webpack\)|webpack\/(?:bootstrap|runtime)/i.test(absPath)) return false;
  return true;
}
