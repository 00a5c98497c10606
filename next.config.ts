import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native module: must be required at runtime, never bundled.
  serverExternalPackages: ["better-sqlite3"],
  poweredByHeader: false,
};

export default nextConfig;
