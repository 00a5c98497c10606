/**
 * The realistic traffic mix (issue 5): per 20 requests, 10 small (~1.5 KB, @sentry/browser) and 4
 * medium (~24 KB, @sentry/node with 90 breadcrumbs) error envelopes — 70/30 of the errors — plus 4
 * session updates and 2 streamed span containers, all captured from the real SDKs. Error envelopes
 * come in `issues` variants (the exception type is numbered), so they group into that many issues.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { readdressedEnvelope } from "../tests/helpers/fixtures";
import { makeTemplate, type Template } from "./load";

const fixtures = path.resolve(import.meta.dirname, "..", "tests", "fixtures", "envelopes");

/** The fixture re-addressed to `publicKey`, with its first `"type":"<T>"` numbered `n`. */
function errorVariant(name: string, type: string, publicKey: string, n: number): Template {
  const { body } = readdressedEnvelope(name, { publicKey });
  const text = body.toString("latin1").replace(`"type":"${type}"`, `"type":"${type}${n}"`);
  return makeTemplate(Buffer.from(text, "latin1"));
}

/** Session updates older than 5 days are dropped by validation: move them to now. */
function sessionTemplate(publicKey: string): Template {
  const now = new Date().toISOString();
  const text = readdressedEnvelope("browser-session-ok", { publicKey })
    .body.toString("latin1")
    .replace(/"(started|timestamp)":"[^"]+"/g, `"$1":"${now}"`)
    .replace(/"sent_at":"[^"]+"/, `"sent_at":"${now}"`);
  return makeTemplate(Buffer.from(text, "latin1"));
}

function spanTemplate(publicKey: string): Template {
  const raw = readFileSync(path.join(fixtures, "telemetry", "browser-span-v2-pageload.envelope"), "latin1");
  return makeTemplate(Buffer.from(raw.split("0123456789abcdef0123456789abcdef").join(publicKey), "latin1"));
}

export function realisticMix(publicKey: string, issues: number): Template[] {
  const session = sessionTemplate(publicKey);
  const spans = spanTemplate(publicKey);
  const templates: Template[] = [];
  for (let n = 0; n < issues; n += 14) {
    for (let i = 0; i < 10; i++) templates.push(errorVariant("browser-uncaught-error", "Error", publicKey, n + i));
    for (let i = 10; i < 14; i++) templates.push(errorVariant("bench/node-medium-error", "TypeError", publicKey, n + i));
    templates.push(session, session, session, session, spans, spans);
  }
  return templates;
}

/** Lines per log container in the log mix: the SDKs flush at 100 (@sentry/core MAX_LOG_BUFFER_SIZE). */
export const LOG_LINES_PER_CONTAINER = 100;

/**
 * One `log` container of LOG_LINES_PER_CONTAINER lines as @sentry/node 11.12 sends them (issue 38):
 * every level, the attributes the SDK adds (release, environment, SDK, sequence, the active span)
 * and two of the application's. The envelope's trace id is fresh per request (makeTemplate), and
 * so is every line's.
 */
export function logTemplate(publicKey: string): Template {
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  const now = Date.now() / 1000;
  const levels = ["info", "info", "info", "debug", "warn", "error"] as const;
  const severity = { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 };
  const items = Array.from({ length: LOG_LINES_PER_CONTAINER }, (_, i) => {
    const level = levels[i % levels.length]!;
    return {
      timestamp: now + i / 1000, level, body: `request ${i} handled for /api/orders/${1000 + i} in ${(i * 7) % 300} ms`, trace_id: traceId,
      severity_number: severity[level],
      attributes: {
        "sentry.release": { value: "shop-api@2.4.1", type: "string" },
        "sentry.environment": { value: "production", type: "string" },
        "sentry.sdk.name": { value: "sentry.javascript.node", type: "string" },
        "sentry.sdk.version": { value: "11.12.0", type: "string" },
        "sentry.timestamp.sequence": { value: i, type: "integer" },
        "sentry.trace.parent_span_id": { value: "a1b2c3d4e5f60718", type: "string" },
        "http.route": { value: "/api/orders/:id", type: "string" },
        "order.id": { value: 1000 + i, type: "integer" },
      },
    };
  });
  const header = { sent_at: new Date().toISOString(), sdk: { name: "sentry.javascript.node", version: "11.12.0" }, trace: { trace_id: traceId, public_key: publicKey } };
  const text = [
    JSON.stringify(header),
    JSON.stringify({ type: "log", item_count: items.length, content_type: "application/vnd.sentry.items.log+json" }),
    JSON.stringify({ version: 2, items }),
  ].join("\n");
  return { ...makeTemplate(Buffer.from(text, "utf8")), label: "log container" };
}

/** The log mix: log containers only, as a service with logging on sends them between its errors. */
export function logMix(publicKey: string): Template[] {
  return [logTemplate(publicKey)];
}
