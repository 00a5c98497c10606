/**
 * The envelope parser over real SDK traffic (tests/fixtures/envelopes/, written by
 * scripts/capture-fixtures.ts). Each fixture is reduced to a summary of what the client captured,
 * compared whole, so a regenerated fixture with different content fails here.
 */
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import { parseEnvelope, type Envelope } from "../../src/ingest/envelope";

const dir = path.resolve(import.meta.dirname, "../fixtures/envelopes");
const NODE = "sentry.javascript.node";
const BROWSER = "sentry.javascript.browser";
const DSN = "http://0123456789abcdef0123456789abcdef@127.0.0.1:PORT/1";

interface EventPayload {
  event_id?: string;
  level?: string;
  message?: string;
  fingerprint?: string[];
  exception?: { values?: { type?: string; value?: string; mechanism?: { type?: string } }[] };
}

/** What the client sent, without ids and timestamps that change on every capture. */
function summarize(envelope: Envelope) {
  const { headers, items } = envelope;
  const json = (index: number): unknown => JSON.parse(items[index]?.payload.toString("utf8") ?? "null");
  const first = items[0]?.headers.type;
  const summary: Record<string, unknown> = {
    types: items.map((item) => item.headers.type),
    sdk: headers.sdk?.name ?? null,
    dsn: headers.dsn?.replace(/:\d+\//, ":PORT/") ?? null,
  };
  if (first === "event") {
    const event = json(0) as EventPayload;
    summary.eventIdMatchesHeader = event.event_id !== undefined && event.event_id === headers.event_id;
    summary.event = {
      level: event.level,
      message: event.message ?? null,
      fingerprint: event.fingerprint ?? null,
      exceptions: (event.exception?.values ?? []).map((value) => [value.type ?? null, value.value, value.mechanism?.type]),
    };
  }
  if (first === "session") {
    const { status, init, errors } = json(0) as { status: string; init: boolean; errors: number };
    summary.session = { status, init, errors };
  }
  if (first === "client_report") summary.discarded = (json(0) as { discarded_events: unknown }).discarded_events;
  const attachment = items.find((item) => item.headers.type === "attachment");
  if (attachment) summary.attachment = { headers: attachment.headers, payload: attachment.payload.toString("utf8") };
  return summary;
}

const uncaught = { level: "error", message: null, fingerprint: null, exceptions: [["Error", "uncaught browser error", "auto.browser.browserapierrors.setTimeout"]] };
const session = (sdk: string, dsn: string | null, status: string, init: boolean, errors: number) => ({ types: ["session"], sdk, dsn, session: { status, init, errors } });
const discarded = [{ reason: "before_send", category: "error", quantity: 1 }];
// Node's captureMessage attaches a synthetic exception carrying the stack trace (attachStacktrace).
const message = (text: string) => ({ level: "info", message: text, fingerprint: null, exceptions: [[null, text, "generic"]] });

const expected: Record<string, Record<string, unknown>> = {
  "node-error-cause": {
    types: ["event"], sdk: NODE, dsn: null, eventIdMatchesHeader: true,
    event: { level: "error", message: null, fingerprint: null, exceptions: [["Error", "inner", "chained"], ["Error", "outer", "generic"]] },
  },
  "node-message": { types: ["event"], sdk: NODE, dsn: null, eventIdMatchesHeader: true, event: message("hello from captureMessage") },
  "node-fingerprint": {
    types: ["event"], sdk: NODE, dsn: null, eventIdMatchesHeader: true,
    event: { level: "error", message: null, fingerprint: ["custom-fingerprint", "{{ default }}"], exceptions: [["Error", "fingerprinted", "generic"]] },
  },
  "node-big-event": { types: ["event"], sdk: NODE, dsn: null, eventIdMatchesHeader: true, event: message("big event") },
  "node-attachment": {
    types: ["event", "attachment"], sdk: NODE, dsn: null, eventIdMatchesHeader: true, event: message("with attachment"),
    attachment: { headers: { type: "attachment", length: 18, filename: "notes.txt", content_type: "text/plain" }, payload: "line one\nline two\n" },
  },
  "node-session-ok": session(NODE, null, "ok", true, 1),
  "node-session-exited": session(NODE, null, "exited", false, 1),
  "node-client-report": { types: ["client_report"], sdk: null, dsn: null, discarded },
  "browser-uncaught-error": { types: ["event"], sdk: BROWSER, dsn: null, eventIdMatchesHeader: true, event: uncaught },
  "browser-session-ok": session(BROWSER, null, "ok", true, 0),
  "browser-session-unhandled": session(BROWSER, null, "unhandled", false, 1),
  "browser-client-report": { types: ["client_report"], sdk: null, dsn: null, discarded },
  "browser-tunnel-uncaught-error": { types: ["event"], sdk: BROWSER, dsn: DSN, eventIdMatchesHeader: true, event: uncaught },
  "browser-tunnel-session-ok": session(BROWSER, DSN, "ok", true, 0),
  "browser-tunnel-session-unhandled": session(BROWSER, DSN, "unhandled", false, 1),
  "browser-tunnel-client-report": { types: ["client_report"], sdk: null, dsn: DSN, discarded },
};

const names = readdirSync(dir).filter((file) => file.endsWith(".envelope")).map((file) => file.slice(0, -".envelope".length));

test("every captured fixture has an expectation, and every expectation a fixture", () => {
  assert.deepEqual(names.toSorted(), Object.keys(expected).toSorted());
});

for (const name of names) {
  test(`fixture ${name}`, () => {
    const body = readFileSync(path.join(dir, `${name}.envelope`));
    assert.deepEqual(summarize(parseEnvelope(body)), expected[name]);
  });
}

test("the JS SDK writes no trailing newline: only a payload that ends in one ends the body with it", () => {
  const endingInNewline = names.filter((name) => readFileSync(path.join(dir, `${name}.envelope`)).at(-1) === 0x0a);
  assert.deepEqual(endingInNewline, ["node-attachment"]);
});

test("the big Node event went over the wire gzipped and chunked, and inflates to the fixture", () => {
  const meta = JSON.parse(readFileSync(path.join(dir, "node-big-event.json"), "utf8")) as { headers: Record<string, string> };
  assert.deepEqual(meta.headers, { "content-encoding": "gzip", "transfer-encoding": "chunked", "user-agent": "sentry.javascript.node/11.12.0" });
  const wire = gunzipSync(readFileSync(path.join(dir, "node-big-event.envelope.gz")));
  assert.deepEqual(wire, readFileSync(path.join(dir, "node-big-event.envelope")));
});
