/**
 * `npm start`: builds the UI when no production build exists yet, compiles server.ts and the code it
 * imports into one ES module, and serves it in this process with plain node.
 *
 * Why not `tsx server.ts`: tsx's loader runs on a worker thread with a V8 isolate of its own and keeps
 * every compiled module's source map; measured idle after start that is ≈ 30 MB of the server's RSS
 * (docs/performance.md). The bundle is rebuilt at every start (≈ 0.3 s), so it never runs stale code.
 * Plain JavaScript because it runs before anything can compile TypeScript. `tsx server.ts` (as the
 * tests and `npm run dev` use) still works and serves the same code.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import * as esbuild from "esbuild";

// Under load the heap holds ≈ 35 MB of live data, but V8 let the old generation grow to ≈ 100 MB of
// mostly dead, promoted request objects before collecting it when the main thread never waits for
// commits (the SQLite commit thread): peak RSS 250–290 MB. A fixed growth of 40 % collects at
// ≈ 45 MB instead — a mark-compact about every second, ≈ 2 % of the main thread — and keeps the
// peak near 200 MB (docs/adr/0004-sqlite-commit-thread.md). Set before any of the server's code runs.
v8.setFlagsFromString("--heap-growing-percent=40");

const root = path.resolve(import.meta.dirname, "..");
// Inside .next so self-monitoring maps its frames through the source map like Next's own bundles.
const outdir = path.join(root, ".next", "periscope-server");
const outfile = path.join(outdir, "server.mjs");

// Next's anonymous usage telemetry stays off (its notice would be the first thing a newcomer reads);
// set here, it reaches the build below and the server this process runs. An explicit value wins.
process.env.NEXT_TELEMETRY_DISABLED ??= "1";

if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
  console.log("No production build found: building the UI first (this takes a minute, once).");
  const started = Date.now();
  // Next's route table means nothing to someone starting Periscope: its output is shown only on failure.
  const build = spawnSync("npx", ["next", "build"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] });
  if (build.status !== 0) {
    process.stderr.write(`${build.stdout ?? ""}${build.stderr ?? ""}`);
    console.error(`The build failed (${build.error?.message ?? (build.signal ? `killed by ${build.signal}` : `exit code ${build.status}`)}); its output is above.`);
    process.exit(1);
  }
  console.log(`Built the UI in ${Math.round((Date.now() - started) / 1000)} s.`);
}

/**
 * Our modules find files beside themselves (migrations, package.json) through import.meta.dirname;
 * in the bundle that would name .next/periscope-server, so each use is replaced by the directory of
 * the source file, expressed relative to the bundle so a moved checkout still works.
 */
const sourceLocations = {
  name: "source-locations",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = readFileSync(args.path, "utf8");
      if (!source.includes("import.meta.dirname") && !source.includes("import.meta.filename")) return undefined;
      const dir = JSON.stringify(path.relative(outdir, path.dirname(args.path)));
      const file = JSON.stringify(path.relative(outdir, args.path));
      return {
        loader: "ts",
        contents: source
          .replaceAll("import.meta.dirname", `__periscopeSourcePath(${dir})`)
          .replaceAll("import.meta.filename", `__periscopeSourcePath(${file})`),
      };
    });
  },
};

try {
  await esbuild.build({
    // Worker threads load their entries (every *.thread.ts) from beside server.mjs under the same
    // name (src/threads/worker-file.ts).
    entryPoints: {
      server: path.join(root, "server.ts"),
      "commit.thread": path.join(root, "src", "storage", "sqlite", "commit.thread.ts"),
      "checkpoint.thread": path.join(root, "src", "storage", "sqlite", "checkpoint.thread.ts"),
    },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Dependencies load from node_modules as usual; only our own TypeScript is compiled.
    packages: "external",
    sourcemap: "linked",
    sourcesContent: true,
    logLevel: "warning",
    banner: {
      js: [
        'import { join as __periscopeJoin } from "node:path";',
        "const __periscopeSourcePath = (relative) => __periscopeJoin(import.meta.dirname, relative);",
      ].join("\n"),
    },
    plugins: [sourceLocations],
  });
} finally {
  // The compiler runs as a child process; nothing of it stays beside the server.
  await esbuild.stop();
}

const { main } = await import(pathToFileURL(outfile).href);
await main();
