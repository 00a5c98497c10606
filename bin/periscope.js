#!/usr/bin/env node
// The `periscope` command: runs src/cli/index.ts with tsx (Periscope ships its TypeScript sources).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// tsx resolved from this package, so the command works from any directory.
const tsx = import.meta.resolve("tsx");
const result = spawnSync(process.execPath, ["--import", tsx, path.join(root, "src", "cli", "index.ts"), ...process.argv.slice(2)], {
  stdio: "inherit",
  cwd: process.cwd(),
});
process.exit(result.status ?? 1);
