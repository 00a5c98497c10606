/**
 * Sessions, client reports, transactions and spans from the real `@sentry/node` SDK (and captured
 * browser envelopes) into a real Periscope, read back through the REST API as Sentry serves them:
 * the sessions API, stats_v2, the Discover-style event list, event details and the trace view.
 * Negative cases: an invalid session or transaction is not stored and is counted `invalid`, while
 * the rest of its envelope is.
 *
 * The SDK is a process-wide singleton, initialised once for the file; the fixture-based cases use
 * projects of their own so their counts are exact.
 */
import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { parseEnvelope } from "../../src/ingest/envelope";
import { FIXTURE_KEY } from "../helpers/fixtures";
import { eventually } from "../helpers/monitoring";
import { startServer, type TestServer } from "../helpers/server";

type Json = Record<string, unknown>;
interface TestProject {
  id: string;
  slug: string;
  publicKey: string;
  dsn: string;
}
interface SeriesAnswer {
  start: string;
  end: string;
  intervals: string[];
  groups: { by: Json; totals: Record<string, number | null>; series: Record<string, (number | null)[]> }[];
}
interface TraceNode {
  op: string;
  description: string;
  is_transaction: boolean;
  transaction_id: string | null;
  transaction: string;
  children: TraceNode[];
}

const RELEASE = "telemetry-test@1.0.0";
let server: TestServer;
let sdkProject: TestProject;

async function get<T>(pathAndQuery: string, status = 200): Promise<T> {
  const response = await server.api(pathAndQuery);
  assert.equal(response.status, status, `GET ${pathAndQuery}`);
  return (await response.json()) as T;
}

async function createProject(name: string): Promise<TestProject> {
  const response = await server.api(`/api/0/teams/default/default/projects/`, { method: "POST", body: JSON.stringify({ name, platform: "node" }) });
  assert.equal(response.status, 201);
  const project = (await response.json()) as { id: string; slug: string };
  const [key] = await get<{ public: string; dsn: { public: string } }[]>(`/api/0/projects/default/${project.slug}/keys/`);
  assert.ok(key);
  return { id: project.id, slug: project.slug, publicKey: key.public, dsn: key.dsn.public };
}

const TIME_KEYS = new Set(["started", "timestamp", "start_timestamp", "end_timestamp"]);

/** Moves every client time in a payload by `shift` ms (numbers are Unix seconds, strings ISO dates). */
function shifted(value: unknown, shift: number, key = ""): unknown {
  if (TIME_KEYS.has(key) && typeof value === "number") return value + shift / 1000;
  if (TIME_KEYS.has(key) && typeof value === "string") return new Date(Date.parse(value) + shift).toISOString();
  if (Array.isArray(value)) return value.map((item) => shifted(item, shift));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shifted(v, shift, k)]));
  return value;
}

/**
 * Captured envelopes as if sent now to `project`: items (by fixture name, each optionally edited)
 * with their times moved to the present, the envelope header of the first.
 */
function envelopeOf(project: TestProject, items: { fixture: string; edit?: (payload: Json) => void }[]): string {
  const lines: string[] = [];
  let header: Json | undefined;
  for (const { fixture, edit } of items) {
    const raw = readFileSync(path.resolve(import.meta.dirname, "../fixtures/envelopes", `${fixture}.envelope`), "utf8").split(FIXTURE_KEY).join(project.publicKey);
    const envelope = parseEnvelope(Buffer.from(raw));
    const shift = Date.now() - Date.parse(String(envelope.headers.sent_at ?? new Date().toISOString()));
    header ??= { ...envelope.headers, sent_at: new Date().toISOString() };
    for (const item of envelope.items) {
      const payload = shifted(JSON.parse(item.payload.toString("utf8")), shift) as Json;
      edit?.(payload);
      lines.push(JSON.stringify(item.headers), JSON.stringify(payload));
    }
  }
  return [JSON.stringify(header), ...lines].join("\n");
}

async function send(project: TestProject, body: string): Promise<Json> {
  const response = await fetch(`${server.baseUrl}/api/${project.id}/envelope/?sentry_key=${project.publicKey}&sentry_version=7`, { method: "POST", body });
  assert.equal(response.status, 200);
  return (await response.json()) as Json;
}

const sessionsPath = (project: TestProject, query: string) => `/api/0/organizations/default/sessions/?project=${project.id}&statsPeriod=24h&${query}`;
const outcomesPath = (project: TestProject, query: string) =>
  `/api/0/organizations/default/stats_v2/?project=${project.id}&field=sum(quantity)&statsPeriod=24h&${query}`;
const totalsOf = (answer: SeriesAnswer) => answer.groups.map((group) => ({ by: group.by, totals: group.totals }));

function outline(node: TraceNode): unknown {
  return { op: node.op, description: node.description, is_transaction: node.is_transaction, children: node.children.map(outline) };
}

before(async () => {
  server = await startServer();
  sdkProject = await createProject("Telemetry SDK");
  Sentry.init({
    dsn: sdkProject.dsn,
    release: RELEASE,
    environment: "test",
    tracesSampleRate: 1,
    // The process-wide session would count once more, whenever this process happens to end it.
    integrations: (defaults) => defaults.filter((integration) => integration.name !== "ProcessSession"),
    beforeSend: (event) => (event.message === "dropped by beforeSend" ? null : event),
  });
});

after(async () => {
  await Sentry.close(5000);
  await server.stop();
});

function transactionsPath(project: TestProject, query: string) {
  return `/api/0/organizations/default/events/?project=${project.id}&dataset=transactions&field=id&field=transaction&field=transaction.op&field=transaction.duration&field=trace&sort=-timestamp&query=${encodeURIComponent(query)}`;
}

/** The one transaction the list finds for `query`, once it is there; asserts the row and Sentry's meta whole. */
async function listedTransaction(project: TestProject, query: string, expected: { transaction: string; op: string; trace: string; id: RegExp }): Promise<string> {
  const list = await eventually(`the transaction ${query} in the list`, async () => {
    const answer = await get<{ data: Json[]; meta: Json }>(transactionsPath(project, query));
    return answer.data.length > 0 ? answer : undefined;
  });
  const [row] = list.data;
  assert.ok(row);
  const id = String(row.id);
  const duration = row["transaction.duration"];
  assert.match(id, expected.id);
  assert.ok(typeof duration === "number" && duration >= 20, `duration ${String(duration)}`);
  assert.deepEqual(list, {
    data: [{ id, transaction: expected.transaction, "transaction.op": expected.op, "transaction.duration": duration, trace: expected.trace }],
    meta: {
      fields: { id: "string", transaction: "string", "transaction.op": "string", "transaction.duration": "duration", trace: "string" },
      units: { id: null, transaction: null, "transaction.op": null, "transaction.duration": "millisecond", trace: null },
      dataset: "transactions", isMetricsData: false, isMetricsExtractedData: false, tips: {},
    },
  });
  return id;
}

describe("transactions and spans from @sentry/node", () => {
  it("stores a streamed segment with its child spans (SDK 11's default): as a transaction, as spans and as a trace", async () => {
    const traceId = await Sentry.startSpan({ name: "checkout", op: "task" }, async (span) => {
      await Sentry.startSpan({ name: "load cart", op: "db.query" }, () => new Promise((resolve) => setTimeout(resolve, 15)));
      await Sentry.startSpan({ name: "charge card", op: "http.client" }, async () => {
        await Sentry.startSpan({ name: "sign request", op: "function" }, () => new Promise((resolve) => setTimeout(resolve, 5)));
      });
      return span.spanContext().traceId;
    });
    assert.equal(await Sentry.flush(5000), true);
    const spanId = await listedTransaction(sdkProject, "transaction:checkout", { transaction: "checkout", op: "task", trace: traceId, id: /^[0-9a-f]{16}$/ });

    const spans = await get<{ data: Json[] }>(
      `/api/0/organizations/default/events/?project=${sdkProject.id}&dataset=spans&field=id&field=span.op&field=span.description&field=is_transaction&field=parent_span&query=trace:${traceId}`,
    );
    const [segment] = spans.data.filter((span) => span.is_transaction === true);
    assert.equal(segment?.id, spanId);
    assert.deepEqual(spans.data.map((span) => `${String(span["span.op"])} ${String(span["span.description"])} ${String(span.parent_span === null)}`).toSorted(), [
      "db.query load cart false",
      "function sign request false",
      "http.client charge card false",
      "task checkout true",
    ]);

    const trace = await get<TraceNode[]>(`/api/0/organizations/default/trace/${traceId}/`);
    assert.deepEqual(trace.map(outline), [
      {
        op: "task", description: "checkout", is_transaction: true,
        children: [
          { op: "db.query", description: "load cart", is_transaction: false, children: [] },
          { op: "http.client", description: "charge card", is_transaction: false, children: [{ op: "function", description: "sign request", is_transaction: false, children: [] }] },
        ],
      },
    ]);
    assert.deepEqual([trace[0]?.transaction_id, trace[0]?.transaction], [null, "checkout"]);
    await get(`/api/0/organizations/default/trace/${"0".repeat(32)}/`, 404);
    await get(`/api/0/organizations/default/trace/not-a-trace/`, 400);
  });

  it("stores a transaction event with its child spans (traceLifecycle static): in the list, as an event and as a trace", async () => {
    const child = spawnSync(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "../helpers/node-static-transaction.ts"), sdkProject.dsn], { encoding: "utf8" });
    assert.equal(child.status, 0, child.stderr);
    const traceId = child.stdout.trim();
    const eventId = await listedTransaction(sdkProject, 'transaction:"nightly report"', { transaction: "nightly report", op: "task", trace: traceId, id: /^[0-9a-f]{32}$/ });

    const event = await get<Json & { entries: { type: string; data: Json[] }[]; contexts: { trace: Json } }>(
      `/api/0/projects/default/${sdkProject.slug}/events/${eventId}/`,
    );
    const spans = event.entries.find((entry) => entry.type === "spans")?.data ?? [];
    assert.deepEqual(
      {
        type: event.type, title: event.title, groupID: event.groupID, release: event.release, trace: event.contexts.trace.trace_id,
        op: event.contexts.trace.op, timed: (event.endTimestamp as number) > (event.startTimestamp as number), measurements: event.measurements,
        spans: spans.map((span) => `${String(span.op)} ${String(span.description)}`).toSorted(),
      },
      {
        type: "transaction", title: "nightly report", groupID: null, release: { version: RELEASE }, trace: traceId, op: "task", timed: true, measurements: {},
        spans: ["db.query load orders", "function render pdf", "http.client fetch logo"],
      },
    );

    const trace = await get<TraceNode[]>(`/api/0/organizations/default/trace/${traceId}/`);
    assert.deepEqual(trace.map(outline), [
      {
        op: "task", description: "nightly report", is_transaction: true,
        children: [
          { op: "db.query", description: "load orders", is_transaction: false, children: [] },
          { op: "function", description: "render pdf", is_transaction: false, children: [{ op: "http.client", description: "fetch logo", is_transaction: false, children: [] }] },
        ],
      },
    ]);
    assert.deepEqual([trace[0]?.transaction_id, trace[0]?.children[0]?.transaction_id], [eventId, eventId]);
    await get(`/api/0/projects/default/${sdkProject.slug}/events/${"f".repeat(32)}/`, 404);
  });
});

describe("sessions", () => {
  it("counts the SDK's session and a browser session that ended unhandled, by status and by release", async () => {
    Sentry.setUser({ id: "user-1" });
    Sentry.startSession();
    Sentry.captureSession();
    Sentry.endSession();
    Sentry.setUser(null);
    assert.equal(await Sentry.flush(5000), true);
    // The browser's first update and its unhandled end, as @sentry/browser sent them (one session).
    assert.deepEqual(await send(sdkProject, envelopeOf(sdkProject, [{ fixture: "browser-session-ok" }])), {});
    assert.deepEqual(await send(sdkProject, envelopeOf(sdkProject, [{ fixture: "browser-session-unhandled" }])), {});

    const answer = await eventually("both sessions counted", async () => {
      const sessions = await get<SeriesAnswer>(sessionsPath(sdkProject, "field=sum(session)&field=count_unique(user)&groupBy=session.status"));
      const total = sessions.groups.reduce((sum, group) => sum + (group.totals["sum(session)"] ?? 0), 0);
      return total >= 2 ? sessions : undefined;
    });
    assert.deepEqual(totalsOf(answer), [
      { by: { "session.status": "healthy" }, totals: { "sum(session)": 1, "count_unique(user)": 1 } },
      { by: { "session.status": "errored" }, totals: { "sum(session)": 0, "count_unique(user)": 0 } },
      { by: { "session.status": "unhandled" }, totals: { "sum(session)": 1, "count_unique(user)": 0 } },
      { by: { "session.status": "abnormal" }, totals: { "sum(session)": 0, "count_unique(user)": 0 } },
      { by: { "session.status": "crashed" }, totals: { "sum(session)": 0, "count_unique(user)": 0 } },
    ]);
    assert.equal(answer.intervals.length, 25, "24 hours, the start rounded down and the end up to whole hours");
    assert.deepEqual([answer.intervals[0], answer.start, answer.end.endsWith(":00:00Z")], [answer.start, answer.intervals[0], true]);
    for (const group of answer.groups) {
      assert.equal(group.series["sum(session)"]?.reduce((sum: number, value) => sum + (value ?? 0), 0), group.totals["sum(session)"]);
    }

    const byRelease = await get<SeriesAnswer>(sessionsPath(sdkProject, "field=sum(session)&field=crash_free_rate(session)&groupBy=release"));
    assert.deepEqual(totalsOf(byRelease), [
      { by: { release: "periscope-fixtures@1.0.0" }, totals: { "sum(session)": 1, "crash_free_rate(session)": 1 } },
      { by: { release: RELEASE }, totals: { "sum(session)": 1, "crash_free_rate(session)": 1 } },
    ]);
    await get(sessionsPath(sdkProject, "field=crash_free_rate(session)&groupBy=session.status"), 400);
    await get(sessionsPath(sdkProject, "field=sum(session)&interval=5m"), 400);
    await get(sessionsPath(sdkProject, "groupBy=session.status"), 400);
  });
});

describe("client reports", () => {
  it("counts an event the SDK dropped in beforeSend as client_discard with reason before_send", async () => {
    Sentry.captureMessage("dropped by beforeSend");
    const query = "groupBy=outcome&groupBy=category&groupBy=reason&outcome=client_discard";
    const stats = await eventually("the client report in stats_v2", async () => {
      // The SDK sends its client report on a flush after it processed (and dropped) the event.
      assert.equal(await Sentry.flush(5000), true);
      const answer = await get<SeriesAnswer>(outcomesPath(sdkProject, query));
      return answer.groups.length > 0 ? answer : undefined;
    });
    assert.deepEqual(totalsOf(stats), [{ by: { outcome: "client_discard", category: "error", reason: "before_send" }, totals: { "sum(quantity)": 1 } }]);
    await get(outcomesPath(sdkProject, "groupBy=outcome"), 400);
  });
});

describe("invalid items are counted and the rest of the envelope is stored", () => {
  it("drops a session with a bad release and keeps the valid one next to it", async () => {
    const project = await createProject("Telemetry invalid session");
    const body = envelopeOf(project, [
      { fixture: "browser-session-ok", edit: (session) => Object.assign(session, { sid: randomUUID(), attrs: { release: "latest" } }) },
      { fixture: "browser-session-ok", edit: (session) => Object.assign(session, { sid: randomUUID() }) },
    ]);
    assert.deepEqual(await send(project, body), {});
    const sessions = await get<SeriesAnswer>(sessionsPath(project, "field=sum(session)"));
    assert.deepEqual(totalsOf(sessions), [{ by: {}, totals: { "sum(session)": 1 } }]);
    const outcomes = await get<SeriesAnswer>(outcomesPath(project, "groupBy=outcome&groupBy=reason&category=session"));
    assert.deepEqual(totalsOf(outcomes), [
      { by: { outcome: "accepted", reason: null }, totals: { "sum(quantity)": 1 } },
      { by: { outcome: "invalid", reason: "invalid_release" }, totals: { "sum(quantity)": 1 } },
    ]);
  });

  it("rejects a transaction ending before it starts and stores the streamed spans next to it", async () => {
    const project = await createProject("Telemetry invalid transaction");
    const body = envelopeOf(project, [
      { fixture: "telemetry/node-transaction-task", edit: (transaction) => Object.assign(transaction, { timestamp: (transaction.start_timestamp as number) - 1 }) },
      { fixture: "telemetry/node-stream-span-v2-task" },
    ]);
    const eventId = String(parseEnvelope(Buffer.from(body)).headers.event_id);
    assert.deepEqual(await send(project, body), { id: eventId });
    await get(`/api/0/projects/default/${project.slug}/events/${eventId}/`, 404);
    const outcomes = await get<SeriesAnswer>(outcomesPath(project, "groupBy=outcome&groupBy=category&groupBy=reason"));
    assert.deepEqual(totalsOf(outcomes), [
      { by: { outcome: "accepted", category: "span", reason: null }, totals: { "sum(quantity)": 4 } },
      { by: { outcome: "invalid", category: "span", reason: "invalid_transaction" }, totals: { "sum(quantity)": 4 } },
      { by: { outcome: "invalid", category: "transaction", reason: "invalid_transaction" }, totals: { "sum(quantity)": 1 } },
    ]);
    const spans = await get<{ data: Json[] }>(
      `/api/0/organizations/default/events/?project=${project.id}&dataset=spans&field=span.op&field=span.description&field=is_transaction&field=transaction`,
    );
    assert.deepEqual(spans.data.map((span) => `${String(span["span.op"])} ${String(span["span.description"])} ${String(span.is_transaction)} ${String(span.transaction)}`).toSorted(), [
      "db.query load cart false checkout",
      "function sign request false checkout",
      "http.client charge card false checkout",
      "task checkout true checkout",
    ]);
    const transactions = await get<{ data: Json[] }>(`/api/0/organizations/default/events/?project=${project.id}&dataset=transactions&field=id&field=transaction`);
    assert.equal(transactions.data.length, 1, "the streamed segment is a transaction");
    assert.match(String(transactions.data[0]?.id), /^[0-9a-f]{16}$/);
  });
});
