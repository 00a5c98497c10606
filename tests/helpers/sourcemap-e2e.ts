/**
 * Shared by the source-map end-to-end tests (tests/integration/sourcemaps-node.test.ts,
 * tests/browser/sourcemaps.test.ts): the real sentry-cli run against a test server, the stored
 * event read back through /api/0, and pages fetched with a signed-in session.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { FrameData } from "../../src/processing/types";
import { eventually } from "./accounts";
import type { TestServer } from "./server";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..", "..");
export const SENTRY_CLI = path.join(root, "node_modules", ".bin", "sentry-cli");

/**
 * The app code both source-map tests build: cart.ts sums the lines priced by pricing.ts, which
 * throws `errorName` from a helper. The entry (main.ts, per SDK) calls `checkoutCart`.
 */
export function cartSources(errorName: string): Record<string, string> {
  return {
    "cart.ts": [
      'import { priceOfLine, type CartLine } from "./pricing";',
      "",
      "export function checkoutCart(lines: CartLine[]): number {",
      "  let total = 0;",
      "  for (const line of lines) {",
      "    total += priceOfLine(line);",
      "  }",
      "  return total;",
      "}",
      "",
    ].join("\n"),
    "pricing.ts": [
      "export interface CartLine {",
      "  sku: string;",
      "  price: number;",
      "  quantity: number;",
      "}",
      "",
      `export class ${errorName} extends Error {`,
      `  override name = "${errorName}";`,
      "}",
      "",
      "export function priceOfLine(line: CartLine): number {",
      "  if (line.quantity > 1) return applyBulkDiscount(line);",
      "  return line.price;",
      "}",
      "",
      "function applyBulkDiscount(line: CartLine): number {",
      "  const rate = line.quantity >= 10 ? 0.2 : 0;",
      `  if (rate === 0) throw new ${errorName}(\`no bulk discount for \${line.quantity} x \${line.sku}\`);`,
      "  return line.price * line.quantity * (1 - rate);",
      "}",
      "",
    ].join("\n"),
  };
}

/** Runs the real sentry-cli against `server` as its owner; fails the test with everything both printed. */
export async function sentryCli(server: TestServer, projectSlug: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(SENTRY_CLI, args, {
      cwd,
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH ?? "",
        HOME: cwd,
        SENTRY_URL: server.baseUrl,
        SENTRY_AUTH_TOKEN: server.ownerToken,
        SENTRY_ORG: server.organizationSlug,
        SENTRY_PROJECT: projectSlug,
        SENTRY_LOAD_DOTENV: "0",
        SENTRY_LOG_LEVEL: "warn",
      },
      timeout: 60_000,
      encoding: "utf8",
    });
    return stdout;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    assert.fail(`sentry-cli ${args.join(" ")} failed:\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}\n${server.output().slice(-3000)}`);
  }
}

/** The slug of the server's default project (the one its DSN points at). */
export async function defaultProjectSlug(server: TestServer): Promise<string> {
  const projects = (await (await server.api(`/api/0/organizations/${server.organizationSlug}/projects/`)).json()) as { id: string; slug: string }[];
  const project = projects.find((candidate) => candidate.id === server.projectId);
  assert.ok(project, "the default project is listed");
  return project.slug;
}

export interface FrameJson {
  filename: string | null;
  absPath: string | null;
  function: string | null;
  lineNo: number | null;
  colNo: number | null;
  inApp: boolean;
  context: [number, string][];
  data: FrameData | null;
}

export interface EventJson {
  id: string;
  groupID: string;
  release: { version: string } | string | null;
  errors: { type: string; message: string; data: Record<string, unknown> }[];
  entries: { type: string; data: { values?: { type: string | null; value: string | null; stacktrace: { frames: FrameJson[] } | null; rawStacktrace: { frames: FrameJson[] } | null }[] } }[];
}

/** The stored event as /api/0 serves it, once ingest has written it. */
export async function storedEvent(server: TestServer, projectSlug: string, eventId: string): Promise<EventJson> {
  return eventually(`event ${eventId}`, async () => {
    const response = await server.api(`/api/0/projects/${server.organizationSlug}/${projectSlug}/events/${eventId}/`);
    if (response.status === 404) return undefined;
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as EventJson;
  }, 20_000);
}

/** The first exception's frames (caller first, as stored), and the frames as the SDK sent them. */
export function exceptionOf(event: EventJson): { type: string | null; value: string | null; frames: FrameJson[]; rawFrames: FrameJson[] | null } {
  const exception = event.entries.find((entry) => entry.type === "exception")?.data.values?.at(-1);
  assert.ok(exception?.stacktrace, `the event has an exception with a stack trace: ${JSON.stringify(event.entries).slice(0, 2000)}`);
  return { type: exception.type, value: exception.value, frames: exception.stacktrace.frames, rawFrames: exception.rawStacktrace?.frames ?? null };
}

/** A page of the UI as server-rendered HTML, fetched with the session `cookie`. */
export async function pageHtml(server: TestServer, cookie: string, pagePath: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}${pagePath}`, { headers: { cookie }, redirect: "manual" });
  const html = await response.text();
  assert.equal(response.status, 200, `${pagePath}: ${html.slice(0, 500)}`);
  return html;
}

export interface PageFrame {
  /** The app's "<file>:<line>:<column>" (e.g. pricing.ts:18:25 under the app's src folder), as the frame's header shows it. */
  file: string;
  function: string;
  /** The source lines shown under the frame, with their numbers ("18  if (...)"), when it has any. */
  source: string[];
  /** The "Source map not applied: …" notice, if any. */
  unresolved: string | null;
}

/** The first stack trace on a page, newest frame first, as the stack-trace component renders it. */
export function framesOnPage(html: string): PageFrame[] {
  const start = html.indexOf('data-testid="stack-trace"');
  if (start < 0) return [];
  const next = html.indexOf('data-testid="stack-trace"', start + 1);
  const trace = html.slice(start, next < 0 ? html.indexOf("<script", start) : next);
  return trace.split('data-testid="frame-file">').slice(1).map((item): PageFrame => {
    const file = /^([\s\S]*?<\/span>)<\/span>/.exec(item)?.[1] ?? "";
    const fn = /data-testid="frame-function">([\s\S]*?)<\/span>/.exec(item)?.[1] ?? "";
    const source = [...item.matchAll(/select-none">(\d*)<\/span><code[^>]*>([\s\S]*?)<\/code>/g)].map((match) => `${match[1]} ${textOf(match[2]!)}`);
    const unresolved = /data-testid="frame-unresolved">([\s\S]*?)<\/span>/.exec(item)?.[1];
    return { file: textOf(file), function: textOf(fn), source, unresolved: unresolved === undefined ? null : textOf(unresolved) };
  });
}

/** An element's text: tags and React's `<!-- -->` separators dropped, entities decoded. */
function textOf(html: string): string {
  return decodeEntities(html.replace(/<!-- -->/g, "").replace(/<[^>]*>/g, ""));
}

function decodeEntities(html: string): string {
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, decimal: string) => String.fromCodePoint(Number(decimal)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** 1-based number of the (first) line of `source` that contains `needle`. */
export function lineOf(source: string, needle: string): number {
  const index = source.split("\n").findIndex((line) => line.includes(needle));
  if (index < 0) throw new Error(`${needle} is not in the source`);
  return index + 1;
}
