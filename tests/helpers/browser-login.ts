/**
 * Signing in for the browser tests: through the real login form in Chromium, or through the
 * /auth/login endpoint (JSON) for the requests a test makes itself.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";

const root = path.resolve(import.meta.dirname, "..", "..");

export const ADMIN_EMAIL = "owner@periscope.test";
export const ADMIN_PASSWORD = "correct horse battery staple";
/** startServer(ADMIN_ENV) creates the owner of the default organisation at first start. */
export const ADMIN_ENV = { PERISCOPE_ADMIN_EMAIL: ADMIN_EMAIL, PERISCOPE_ADMIN_PASSWORD: ADMIN_PASSWORD };

/** Fills in /login and waits until the browser has left it (signed in). */
export async function loginInBrowser(page: Page, baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD, next?: string): Promise<void> {
  await page.goto(`${baseUrl}/login${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await Promise.all([page.waitForURL((url) => url.pathname !== "/login"), page.getByRole("button", { name: "Sign in" }).click()]);
}

/** A Cookie header value carrying a fresh session, for fetch() calls made by the test itself. */
export async function sessionCookie(baseUrl: string, email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  assert.equal(response.status, 200, `login as ${email}: ${await response.clone().text()}`);
  const cookies = response.headers.getSetCookie().map((value) => value.split(";")[0]!);
  assert.ok(cookies.some((cookie) => cookie.startsWith("periscope_session=")), "a session cookie is set");
  return cookies.join("; ");
}

export interface FreshServer {
  baseUrl: string;
  /** The setup link the server printed (with its one-time token). */
  setupUrl: string;
  /** The token of that link. */
  setupToken: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * A Periscope with no account at all, for the first-run setup page. tests/helpers/server.ts is about
 * to bootstrap an owner (and an API token for it) on every start, which is what the setup flow must
 * not have; this starts server.ts without PERISCOPE_ADMIN_EMAIL/PASSWORD instead.
 */
export async function startServerWithoutOwner(env: Record<string, string> = {}): Promise<FreshServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "periscope-setup-test-"));
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "production", ...env, DATA_DIR: dataDir };
  delete childEnv.PERISCOPE_ADMIN_EMAIL;
  delete childEnv.PERISCOPE_ADMIN_PASSWORD;
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const { baseUrl, setupUrl } = await new Promise<{ baseUrl: string; setupUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 60 s:\n${output}`)), 60_000);
    child.stdout.on("data", () => {
      const url = /Periscope is running at (\S+)/.exec(output)?.[1];
      const setup = /No account exists yet: open (\S+) to create the owner account/.exec(output)?.[1];
      if (url && setup) {
        clearTimeout(timer);
        resolve({ baseUrl: url, setupUrl: setup });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code}:\n${output}`));
    });
  });
  return {
    baseUrl,
    setupUrl,
    setupToken: new URL(setupUrl).searchParams.get("token") ?? "",
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
