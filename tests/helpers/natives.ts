/**
 * Runs an ES module script in a child Node with V8's natives syntax (`%HaveSameMap` and the like),
 * which a test process cannot turn on for itself, and returns what it printed. Imports of the
 * repository's TypeScript work through tsx; give them absolute paths (`sourcePath`).
 */
import { execFileSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "..");

/** A repository file's absolute path as a JavaScript string literal, for the script's imports. */
export const sourcePath = (file: string) => JSON.stringify(path.join(root, file));

export function runWithNatives(script: string): string {
  return execFileSync(process.execPath, ["--allow-natives-syntax", "--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
  });
}
