/**
 * `npm test`: typecheck, lint, then the unit, integration and browser suites with node's test runner.
 * `npm test -- unit` (or integration, browser) runs one suite alone, without typecheck and lint.
 *
 * Integration and browser tests run a real server against a production build of the UI; it is built
 * here first when missing or older than the sources. Browser tests need Chromium: without it they
 * are reported as skipped with the reason, and under CI=true a skip is a failure.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { chromiumPath } from "../tests/helpers/chromium";

const root = path.resolve(import.meta.dirname, "..");
const suites = ["unit", "integration", "browser"] as const;
type Suite = (typeof suites)[number];

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  return result.status === 0;
}

function testFiles(suite: Suite): string[] {
  const dir = path.join(root, "tests", suite);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".test.ts"))
    .sort()
    .map((file) => path.join("tests", suite, file));
}

function newestSourceMtime(dirs: string[]): number {
  let newest = 0;
  const visit = (entry: string) => {
    const stat = statSync(entry);
    if (stat.isDirectory()) {
      for (const child of readdirSync(entry)) visit(path.join(entry, child));
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  };
  for (const dir of dirs) if (existsSync(path.join(root, dir))) visit(path.join(root, dir));
  return newest;
}

function ensureBuild(): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const sources = newestSourceMtime(["app", "components", "src", "next.config.ts", "package.json"]);
  if (existsSync(buildId) && statSync(buildId).mtimeMs > sources) return true;
  return run("npx", ["next", "build"]);
}

function runSuite(suite: Suite): boolean {
  const files = testFiles(suite);
  if (files.length === 0) {
    console.log(`\n# ${suite}: no test files`);
    return true;
  }
  if (suite === "browser" && chromiumPath() === null) {
    const reason = "Chromium not found (install it with: apt-get install -y chromium)";
    if (process.env.CI === "true") {
      console.error(`\n# browser: FAILED — ${reason}; under CI=true a skipped browser suite is a failure`);
      return false;
    }
    console.log(`\n# browser: SKIPPED — ${reason}`);
    return true;
  }
  if (suite !== "unit" && !ensureBuild()) return false;
  return run(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", ...files]);
}

const requested = process.argv[2];
let ok = true;
if (requested) {
  if (!(suites as readonly string[]).includes(requested)) {
    console.error(`unknown suite "${requested}"; expected one of: ${suites.join(", ")}`);
    process.exit(2);
  }
  ok = runSuite(requested as Suite);
} else {
  ok = run("npx", ["tsc", "--noEmit"]) && run("npx", ["eslint", "--max-warnings", "0", "."]);
  for (const suite of suites) ok = runSuite(suite) && ok;
}
process.exit(ok ? 0 : 1);
