/**
 * Performance through the REST API on both engines (issue 36): legacy `transaction` events and SDK 11
 * v2 span containers of one transaction land in the same aggregates, whose percentiles and failure
 * rate equal the figures computed here from the durations sent; an error captured inside a trace is
 * listed under the span named by its contexts.trace, and one whose span was not received as a root.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { eventually } from "../helpers/monitoring";
import { failureRate, legacyTransactionEnvelope, percentile, SAMPLE_DURATIONS, streamedSegmentEnvelope, type SampleSpec } from "../helpers/perf-envelopes";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";

type Json = Record<string, unknown>;
interface TraceNode {
  event_id: string;
  event_type: "span" | "error";
  op?: string;
  span?: string | null;
  title?: string;
  errors?: { event_id: string; span: string; title: string; project_slug: string }[];
  children: TraceNode[];
}

const NAME = "/checkout/:step";
const STATUSES: SampleSpec["status"][] = ["ok", "internal_error", "ok", "ok", "error", "ok", "cancelled", "ok", "ok", "ok"];

function engineSuite(engine: "sqlite" | "postgres") {
  describe(`performance API: ${engine}`, { timeout: 120_000 }, () => {
    let server: TestServer;
    let schema: TestSchema | undefined;
    let project: { id: string; slug: string; dsn: string };
    const specs: SampleSpec[] = [];
    const traces: string[] = [];

    const get = async <T>(path: string, status = 200): Promise<T> => {
      const response = await server.api(path);
      const body = (await response.json()) as T;
      assert.equal(response.status, status, `GET ${path}: ${JSON.stringify(body)}`);
      return body;
    };
    const send = async (body: string) => {
      const response = await fetch(`${server.baseUrl}/api/${project.id}/envelope/`, { method: "POST", body });
      assert.equal(response.status, 200, await response.text());
    };
    const aggregates = (fields: string[], extra = "") =>
      `/api/0/organizations/default/events/?project=${project.id}&dataset=transactions&statsPeriod=1h&${fields.map((f) => `field=${encodeURIComponent(f)}`).join("&")}${extra}`;

    before(async () => {
      if (engine === "postgres") schema = await freshSchema();
      server = await startServer(schema ? { DATABASE_URL: schema.url } : {});
      const response = await server.api(`/api/0/teams/default/default/projects/`, { method: "POST", body: JSON.stringify({ name: "Shop", platform: "javascript" }) });
      const created = (await response.json()) as { id: string; slug: string };
      const [key] = (await (await server.api(`/api/0/projects/default/${created.slug}/keys/`)).json()) as { dsn: { public: string } }[];
      project = { ...created, dsn: key!.dsn.public };
      // Whole seconds and durations exact in binary: the stored times give the durations back exactly.
      const base = Math.floor(Date.now() / 1000) * 1000 - 120_000;
      SAMPLE_DURATIONS.forEach((duration, i) => specs.push({ name: NAME, duration, status: STATUSES[i]!, end: base + i * 1000, lcp: 1000 + i * 500 }));
      for (const [i, spec] of specs.entries()) {
        // Half as legacy transaction events, half as streamed containers: one transaction.
        const { body, traceId } = i % 2 === 0 ? legacyTransactionEnvelope(project.dsn, spec) : streamedSegmentEnvelope(project.dsn, spec);
        traces.push(traceId);
        await send(body);
      }
      await send(legacyTransactionEnvelope(project.dsn, { name: "/health", duration: 4, status: "ok", end: base }).body);
    });
    after(async () => {
      await server?.stop();
      await schema?.drop();
    });

    it("answers count, tpm, percentiles and failure rate of legacy and streamed samples alike", async () => {
      const fields = ["transaction", "transaction.op", "count()", "tpm()", "p50()", "p75()", "p95()", "p99()", "failure_rate()", "failure_count()"];
      const answer = await eventually("every sample stored", async () => {
        const body = await get<{ data: Json[]; meta: Json }>(aggregates(fields, `&query=${encodeURIComponent(`transaction:"${NAME}"`)}`));
        return body.data[0]?.["count()"] === specs.length ? body : undefined;
      });
      const row = answer.data[0]!;
      const durations = specs.map((spec) => spec.duration);
      assert.equal(row.transaction, NAME);
      assert.equal(row["failure_count()"], 2);
      for (const [field, expected] of [
        ["p50()", percentile(durations, 0.5)], ["p75()", percentile(durations, 0.75)], ["p95()", percentile(durations, 0.95)],
        ["p99()", percentile(durations, 0.99)], ["failure_rate()", failureRate(specs)], ["tpm()", specs.length / 60],
      ] as const) {
        assert.ok(Math.abs((row[field] as number) - expected) < 1e-6, `${field}: ${String(row[field])} vs ${expected}`);
      }
      assert.deepEqual(answer.meta.fields, {
        transaction: "string", "transaction.op": "string", "count()": "integer", "tpm()": "rate", "p50()": "duration", "p75()": "duration",
        "p95()": "duration", "p99()": "duration", "failure_rate()": "percentage", "failure_count()": "integer",
      });

      const sorted = await get<{ data: Json[] }>(aggregates(["transaction", "p95()"], "&sort=-p95()"));
      assert.deepEqual(sorted.data.map((r) => r.transaction), [NAME, "/health"]);
      const ascending = await get<{ data: Json[] }>(aggregates(["transaction", "p95()"], "&sort=p95()"));
      assert.deepEqual(ascending.data.map((r) => r.transaction), ["/health", NAME]);
      assert.deepEqual((await get<{ data: Json[] }>(aggregates(["transaction", "count()"], "&environment=staging"))).data, []);
      assert.equal((await get<{ data: Json[] }>(aggregates(["transaction", "count()"], `&query=${encodeURIComponent("release:shop@1.0.0")}`))).data.length, 2);
      await get(aggregates(["transaction", "p95()"], "&sort=-p42()"), 400);
      await get(aggregates(["transaction", "median_of_everything()"]), 400);
      await get(`/api/0/organizations/default/events/?project=${project.id}&dataset=transactions&field=transaction&field=p95()&statsPeriod=forever`, 400);
      await get(`/api/0/organizations/default/events/?dataset=spans&field=count()`, 400);
    });

    it("lists an error captured inside a trace under its span, and one whose span was not received as a root", async () => {
      const traceId = traces[0]!;
      const trace = await eventually("the trace stored", async () => {
        const response = await server.api(`/api/0/organizations/default/trace/${traceId}/`);
        return response.status === 200 ? ((await response.json()) as TraceNode[]) : undefined;
      });
      const root = trace[0]!;
      const pinned = randomBytes(16).toString("hex");
      const loose = randomBytes(16).toString("hex");
      const errorEnvelope = (eventId: string, spanId: string, message: string) => {
        const event = {
          event_id: eventId, platform: "javascript", level: "error", timestamp: Date.now() / 1000,
          exception: { values: [{ type: "Error", value: message }] }, contexts: { trace: { trace_id: traceId, span_id: spanId } },
        };
        return [JSON.stringify({ event_id: eventId, dsn: project.dsn }), JSON.stringify({ type: "event" }), JSON.stringify(event)].join("\n");
      };
      await send(errorEnvelope(pinned, root.event_id, "cart total mismatch"));
      await send(errorEnvelope(loose, "feedbeeffeedbeef", "lost span"));
      const withErrors = await eventually("both errors listed", async () => {
        const answer = await get<TraceNode[]>(`/api/0/organizations/default/trace/${traceId}/`);
        return answer.filter((node) => node.event_type === "error").length === 1 && answer[0]?.errors?.length === 1 ? answer : undefined;
      });
      const spanNode = withErrors.find((node) => node.event_type === "span")!;
      assert.deepEqual(spanNode.errors?.map((error) => [error.event_id, error.span, error.title, error.project_slug]), [[pinned, root.event_id, "Error: cart total mismatch", project.slug]]);
      const orphan = withErrors.find((node) => node.event_type === "error")!;
      assert.deepEqual([orphan.event_id, orphan.span, orphan.title], [loose, "feedbeeffeedbeef", "Error: lost span"]);
      // A trace with no span received but an error is found by its error.
      const onlyError = randomBytes(16).toString("hex");
      const event = { event_id: randomBytes(16).toString("hex"), platform: "node", level: "error", timestamp: Date.now() / 1000, message: "alone", contexts: { trace: { trace_id: onlyError, span_id: "1234567812345678" } } };
      await send([JSON.stringify({ event_id: event.event_id, dsn: project.dsn }), JSON.stringify({ type: "event" }), JSON.stringify(event)].join("\n"));
      const alone = await eventually("the error-only trace", async () => {
        const response = await server.api(`/api/0/organizations/default/trace/${onlyError}/`);
        return response.status === 200 ? ((await response.json()) as TraceNode[]) : undefined;
      });
      assert.deepEqual(alone.map((node) => node.event_type), ["error"]);
    });
  });
}

engineSuite("sqlite");
if (await postgresForTests("performance API: postgres")) engineSuite("postgres");
