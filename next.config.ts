import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native module: must be required at runtime, never bundled.
  serverExternalPackages: ["better-sqlite3"],
  poweredByHeader: false,
  // Sentry's API paths end in "/" and clients POST/PUT to them: a 308 redirect would break them.
  skipTrailingSlashRedirect: true,
};

export default nextConfig;
