import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native modules: must be required at runtime, never bundled.
  serverExternalPackages: ["better-sqlite3", "argon2"],
  poweredByHeader: false,
  // Sentry's API paths end in "/" and clients POST/PUT to them: a 308 redirect would break them.
  skipTrailingSlashRedirect: true,
  // Source maps for the server bundle let self-monitoring map its own server errors back to the
  // TypeScript sources (src/monitoring/source-maps.ts).
  experimental: { serverSourceMaps: true },
};

export default nextConfig;
