import { realpathSync } from "node:fs";
import path from "node:path";
import type { NextConfig } from "next";

/**
 * Turbopack resolves only inside its root. A git worktree may share another checkout's
 * node_modules through a symlink: the root is then the directory holding both; in a plain checkout
 * it is the project itself.
 */
function workspaceRoot(): string {
  const project = path.resolve(import.meta.dirname);
  let modules: string;
  try {
    modules = realpathSync(path.join(project, "node_modules"));
  } catch {
    return project;
  }
  let root = project;
  while (!(modules + path.sep).startsWith(root + path.sep) && path.dirname(root) !== root) root = path.dirname(root);
  return root;
}

/**
 * Security headers on every response Next sends (pages, route handlers, the REST API; the ingest
 * door in server.ts answers by itself and never serves HTML). The Content-Security-Policy, with its
 * per-request script nonce, HSTS and the API's Cache-Control are set in server.ts before Next
 * sees the request (src/http/page-headers.ts).
 */
function securityHeaders(): { key: string; value: string }[] {
  return [
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    // Invite links carry their secret in the path: never send a path to another origin.
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
    { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  ];
}

export default function config(): NextConfig {
  return {
    // Native modules: must be required at runtime, never bundled.
    serverExternalPackages: ["better-sqlite3", "argon2", "re2"],
    poweredByHeader: false,
    // Sentry's API paths end in "/" and clients POST/PUT to them: a 308 redirect would break them.
    skipTrailingSlashRedirect: true,
    // Source maps for the server bundle let self-monitoring map its own server errors back to the
    // TypeScript sources (src/monitoring/source-maps.ts).
    experimental: {
      serverSourceMaps: true,
      // Next would load every page's and route's modules right after start, holding the event loop
      // that also answers SDKs for ≈ 1 s (docs/performance.md); each loads on its first request instead.
      preloadEntriesOnStart: false,
    },
    turbopack: { root: workspaceRoot() },
    outputFileTracingRoot: workspaceRoot(),
    async headers() {
      return [{ source: "/:path*", headers: securityHeaders() }];
    },
  };
}
