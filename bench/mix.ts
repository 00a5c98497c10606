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
