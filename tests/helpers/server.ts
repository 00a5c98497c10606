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
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "..", "..");

export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "periscope-test-"));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, NODE_ENV: "production", ...env },
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
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
