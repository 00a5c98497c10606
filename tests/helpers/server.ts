/**
 * Starts a real Periscope (server.ts in a child process) on a free port with a fresh data
 * directory, for end-to-end tests. Needs a production build (`npm test` makes one first).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SCOPES } from "../../src/auth/scopes";
import { loadConfig } from "../../src/config";
import { CLI_ACTOR } from "../../src/services/accounts/actor";
import { createApiToken } from "../../src/services/accounts/tokens";
import { createStorage } from "../../src/storage";
import type { Storage } from "../../src/storage/types";

/** The owner every test server is bootstrapped with (PERISCOPE_ADMIN_EMAIL / PASSWORD). */
export const OWNER_EMAIL = "owner@example.com";
export const OWNER_PASSWORD = "correct horse battery staple";

export interface TestServer {
  /** The server process's id (to read its memory from /proc). */
  pid: number;
  baseUrl: string;
  dsn: string;
  projectId: string;
  publicKey: string;
  organizationSlug: string;
  dataDir: string;
  /** An API token of the owner carrying every scope. */
  ownerToken: string;
  /** The environment the server was started with (to open its storage from the test process). */
  env: Record<string, string>;
  /** fetch against the server as the owner: `server.api("/api/0/organizations/")`. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** Opens the server's storage in the test process (SQLite in WAL mode or the same PostgreSQL), runs `fn`, closes it. */
  withStorage<T>(fn: (storage: Storage) => Promise<T>): Promise<T>;
  /** Everything the server printed so far. */
  output(): string;
  /** SIGTERM, wait for exit, then delete the data directory unless `keepData`. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** SIGKILL, as a crash would: nothing gets to finish. The data directory stays. */
  kill(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, "..", "..");

export interface StartOptions {
  /**
   * false: start without PERISCOPE_ADMIN_EMAIL/PASSWORD, for a second process on a database whose
   * owner another process creates (server.ts does not yet survive two processes racing to create it).
   */
  bootstrapOwner?: boolean;
}

export async function startServer(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestServer> {
  // Pass DATA_DIR to restart on an existing data directory (e.g. after kill()).
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "periscope-test-"));
  const serverEnv: Record<string, string> = {
    PORT: "0",
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    ...(options.bootstrapOwner === false ? {} : { PERISCOPE_ADMIN_EMAIL: OWNER_EMAIL, PERISCOPE_ADMIN_PASSWORD: OWNER_PASSWORD }),
    ...env,
    DATA_DIR: dataDir,
  };
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: { ...process.env, ...serverEnv },
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
  const withStorage = <T>(fn: (storage: Storage) => Promise<T>) => withStorageOf(serverEnv, fn);
  const ownerToken = await withStorage(async (storage) => {
    // Servers started together on one database race to create the owner; the winner may still be writing.
    const deadline = Date.now() + 15_000;
    const email = serverEnv.PERISCOPE_ADMIN_EMAIL ?? OWNER_EMAIL;
    let owner = await storage.accounts.users.getByEmail(email);
    while (!owner && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      owner = await storage.accounts.users.getByEmail(email);
    }
    if (!owner) throw new Error(`the owner ${OWNER_EMAIL} was not created:\n${output}`);
    return (await createApiToken(storage, CLI_ACTOR, owner, { name: "tests", scopes: [...SCOPES] })).token;
  });
  return {
    pid: child.pid!,
    baseUrl: ready.baseUrl,
    dsn: ready.dsn,
    projectId: dsn.pathname.replace(/^\//, ""),
    publicKey: dsn.username,
    organizationSlug: "default",
    dataDir,
    ownerToken,
    env: serverEnv,
    api: (apiPath, init = {}) => fetch(`${ready.baseUrl}${apiPath}`, withBearer(ownerToken, init)),
    withStorage,
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

/** `init` with `Authorization: Bearer <token>` added. */
export function withBearer(token: string, init: RequestInit = {}): RequestInit {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return { ...init, headers };
}

export async function withStorageOf<T>(env: Record<string, string>, fn: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await createStorage(loadConfig({ ...process.env, ...env }));
  try {
    return await fn(storage);
  } finally {
    await storage.close();
  }
}
