/**
 * `npm start`: builds the UI when no production build exists yet, then serves it with server.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { main } from "../server";

const root = path.resolve(import.meta.dirname, "..");

if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log("No production build found: building the UI first (this takes a minute, once).");
  const build = spawnSync("npx", ["next", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) {
    console.error("The build failed; see the output above.");
    process.exit(1);
  }
}

await main();
