/**
 * Starts a real Periscope (server.ts in a child process) on a free port with a fresh data
 * directory, for end-to-end tests. Needs a production build (`npm test` makes one first).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export interface TestServer {
  baseUrl: string;
  dsn: string;
  projectId: string;
  publicKey: string;
  organizationSlug: string;
  dataDir: string;
  /** Everything the server printed so far. */
  output(): string;
  /** SIGTERM, wait for exit, then delete the data directory unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** SIGKILL, as a crash would: nothing gets to finish. The data directory stays. */
  kill(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "..", "..");

export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  // Pass DATA_DIR to restart on an existing data directory (e.g. after kill()).
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "periscope-test-"));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "production", ...env, DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));

  const ready = await new Promise<{ baseUrl: string; dsn: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${output}`)), 60_000);
    const check = () => {
      const url = /Periscope is running at (\S+)/.exec(output)?.[1];
      const dsn = /Default project DSN: (\S+)/.exec(output)?.[1];
      if (url && dsn) {
        clearTimeout(timer);
        resolve({ baseUrl: url, dsn });
      }
    };
    child.stdout?.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code}:\n${output}`));
    });
  });
  const dsn = new URL(ready.dsn);
  return {
    baseUrl: ready.baseUrl,
    dsn: ready.dsn,
    projectId: dsn.pathname.replace(/^\//, ""),
    publicKey: dsn.username,
    organizationSlug: "default",
    dataDir,
    output: () => output,
    async stop(options = {}) {
      await signal(child, "SIGTERM");
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
    async kill() {
      await signal(child, "SIGKILL");
    },
  };
}

async function signal(child: ChildProcess, name: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(name);
  await exited;
}
