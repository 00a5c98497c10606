/**
 * Logs and attachments from the real `@sentry/node` SDK.
 *
 * Logs from the real `@sentry/node` SDK (11.12: `Sentry.logger.*`, on by default) into a real
 * Periscope on each engine, read back through `/api/0/organizations/{org}/events/?dataset=logs`
 * with the fields the test sent: every level, typed attributes, the trace and span of the span they
 * were written in, nanosecond timestamps. Negative case: a container whose `item_count` lies is
 * counted invalid and nothing else of its envelope is lost.
 *
 * Attachments (`scope.addAttachment` and hint attachments, a minidump among them) are listed and
 * downloaded through `/api/0/projects/{org}/{project}/events/{id}/attachments/` as Sentry serves them:
 * as downloads, never as pages. An oversized one is counted too_large and its event kept.
 *
 * The SDK is a process-wide singleton: it is initialised per engine, pointing at that engine's server.
 */
import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { eventually } from "../helpers/monitoring";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";
import { startServer, type TestServer } from "../helpers/server";

type Row = Record<string, unknown>;

const MAX_ATTACHMENT = 64 * 1024;

const FIELDS = ["id", "timestamp", "timestamp_precise", "message", "severity", "severity_number", "trace", "span_id", "project.id", "order.id", "paid", "ratio"];

async function logsOf(server: TestServer, query: string, fields = FIELDS): Promise<{ data: Row[]; meta: Row }> {
  const url = `/api/0/organizations/default/events/?dataset=logs&project=${server.projectId}&per_page=100&${fields.map((f) => `field=${encodeURIComponent(f)}`).join("&")}&query=${encodeURIComponent(query)}`;
  const response = await server.api(url);
  assert.equal(response.status, 200, `${url}: ${await response.clone().text()}`);
  return (await response.json()) as { data: Row[]; meta: Row };
}

function engineSuite(engine: "sqlite" | "postgres"): void {
  describe(`logs from @sentry/node: ${engine}`, () => {
    let server: TestServer;
    let schema: TestSchema | null = null;
    let skip = false;

    before(async () => {
      if (engine === "postgres") {
        if (!(await postgresForTests("logs on PostgreSQL"))) {
          skip = true;
          return;
        }
        schema = await freshSchema();
      }
      server = await startServer({ MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT), ...(schema ? { DATABASE_URL: schema.url } : {}) });
      Sentry.init({ dsn: server.dsn, release: "logs-test@1.0.0", environment: "test", tracesSampleRate: 1, defaultIntegrations: false });
    });

    after(async () => {
      if (skip) return;
      await Sentry.close(5000);
      await server.stop();
      await schema?.drop();
    });

    it("stores a line of every level with its attributes, trace and span, and serves Sentry's fields", async (t) => {
      if (skip) return t.skip("no PostgreSQL");
      const run = randomUUID().slice(0, 8);
      const levels = ["trace", "debug", "info", "warn", "error", "fatal"] as const;
      const { traceId, spanId } = Sentry.startSpan({ name: "checkout", op: "task" }, (span) => {
        for (const level of levels) Sentry.logger[level](`${run} ${level} line`, { "order.id": 42, paid: level !== "error", ratio: 0.5 });
        return { traceId: span.spanContext().traceId, spanId: span.spanContext().spanId };
      });
      Sentry.logger.info(Sentry.logger.fmt`${run} user ${"ann"} signed in`);
      const before = Date.now();
      assert.equal(await Sentry.flush(5000), true);

      const answer = await eventually("the log lines", async () => {
        const found = await logsOf(server, run);
        return found.data.length === 7 ? found : undefined;
      });
      const inSpan = answer.data.filter((row) => row.trace === traceId && String(row.message).endsWith(" line"));
      assert.deepEqual(inSpan.map((row) => row.severity).toSorted(), [...levels].sort());
      const severity = { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 };
      for (const row of inSpan) {
        const level = row.severity as keyof typeof severity;
        assert.equal(row.message, `${run} ${level} line`);
        assert.equal(row.severity_number, severity[level]);
        assert.equal(row.span_id, spanId, "the active span, sent as sentry.trace.parent_span_id");
        assert.equal(row["project.id"], Number(server.projectId));
        assert.deepEqual([row["order.id"], row.paid, row.ratio], [42, level !== "error", 0.5]);
        assert.match(String(row.id), /^[0-9a-f]{32}$/);
        const ns = BigInt(String(row.timestamp_precise));
        const ms = Date.parse(String(row.timestamp));
        assert.ok(ms <= before && before - ms < 60_000, `timestamp ${String(row.timestamp)}`);
        assert.equal(ns / 1_000_000n, BigInt(ms), "timestamp_precise is the same instant in nanoseconds");
      }
      // Newest first: the line written last comes first.
      assert.equal(answer.data[0]!.message, `${run} user ann signed in`);
      assert.deepEqual(answer.meta.fields, {
        id: "string", timestamp: "date", timestamp_precise: "string", message: "string", severity: "string", severity_number: "integer",
        trace: "string", span_id: "string", "project.id": "integer", "order.id": "integer", paid: "boolean", ratio: "number",
      });

      const messages = async (query: string) => (await logsOf(server, `${run} ${query}`, ["message"])).data.map((row) => row.message);
      assert.deepEqual(await messages("severity:error"), [`${run} error line`]);
      assert.deepEqual(await messages("severity:[warn,fatal]"), [`${run} fatal line`, `${run} warn line`]);
      assert.deepEqual(await messages("paid:false"), [`${run} error line`]);
      assert.deepEqual(await messages("SIGNED"), [`${run} user ann signed in`]);
      // Outside the span the SDK keeps the scope's trace: the filter finds what the unfiltered list says.
      const sameTrace = answer.data.filter((row) => row.trace === traceId).map((row) => row.message);
      assert.ok(sameTrace.length >= 6);
      assert.deepEqual(await messages(`trace:${traceId}`), sameTrace);
      assert.equal(answer.data[0]!.span_id, null, "no span was active for the last line");
      const template = await logsOf(server, `${run} signed`, ["sentry.message.template", "sentry.message.parameter.0"]);
      assert.deepEqual(template.data, [{ "sentry.message.template": "%s user %s signed in", "sentry.message.parameter.0": run }]);

      const bad = await server.api(`/api/0/organizations/default/events/?dataset=logs&field=message&query=${encodeURIComponent("severity:loud")}`);
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { detail: string }).detail, /unknown severity loud/);
    });

    it("refuses a container whose item_count lies and keeps the event beside it", async (t) => {
      if (skip) return t.skip("no PostgreSQL");
      const eventId = randomUUID().replaceAll("-", "");
      const now = Date.now() / 1000;
      const line = (body: string) => ({ timestamp: now, level: "info", body, trace_id: "ab".repeat(16), attributes: {} });
      const body = [
        JSON.stringify({ event_id: eventId, sent_at: new Date().toISOString() }),
        JSON.stringify({ type: "log", item_count: 3, content_type: "application/vnd.sentry.items.log+json" }),
        JSON.stringify({ items: [line("lying 1"), line("lying 2")] }),
        JSON.stringify({ type: "event" }),
        JSON.stringify({ event_id: eventId, message: "kept beside a lying log container", timestamp: now, platform: "node" }),
      ].join("\n");
      const response = await fetch(`${server.baseUrl}/api/${server.projectId}/envelope/?sentry_key=${server.publicKey}&sentry_version=7`, { method: "POST", body });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), { id: eventId });
      const event = await server.api(`/api/0/projects/default/${await projectSlug(server)}/events/${eventId}/`);
      assert.equal(event.status, 200);
      assert.deepEqual((await logsOf(server, "lying", ["message"])).data, []);
      const totals = await server.withStorage((storage) => storage.outcomes.totals(server.projectId, Date.now() - 3_600_000));
      const invalid = totals.filter((total) => total.outcome === "invalid" && total.category.startsWith("log_"));
      assert.deepEqual(invalid.map((total) => [total.category, total.reason, total.quantity]).toSorted(), [
        ["log_byte", "invalid_log", JSON.stringify({ items: [line("lying 1"), line("lying 2")] }).length],
        ["log_item", "invalid_log", 3],
      ]);
    });

    it("stores scope and hint attachments beside their event and serves them as downloads", async (t) => {
      if (skip) return t.skip("no PostgreSQL");
      const minidump = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 31) % 256));
      const html = "<script>alert(document.cookie)</script>";
      const eventId = Sentry.withScope((scope) => {
        scope.addAttachment({ filename: "notes.txt", data: "line one\nline two\n", contentType: "text/plain" });
        scope.addAttachment({ filename: "page.html", data: html, contentType: "text/html" });
        return Sentry.captureException(new Error("with attachments"), {
          attachments: [{ filename: "crash.dmp", data: minidump, attachmentType: "event.minidump", contentType: "application/octet-stream" }],
        });
      });
      assert.equal(await Sentry.flush(5000), true);
      const slug = await projectSlug(server);
      const base = `/api/0/projects/default/${slug}/events/${eventId}/attachments/`;
      const listed = await eventually("the attachments", async () => {
        const response = await server.api(base);
        const body = (await response.json()) as Row[];
        return response.status === 200 && body.length === 3 ? body : undefined;
      });
      const byName = new Map(listed.map((row) => [row.name, row]));
      const sha1 = (data: string | Buffer) => createHash("sha1").update(data).digest("hex");
      assert.deepEqual(
        [...byName.values()].map((row) => [row.name, row.type, row.mimetype, row.size, row.sha1, row.event_id]).toSorted(),
        [
          ["crash.dmp", "event.minidump", "application/octet-stream", minidump.length, sha1(minidump), eventId],
          ["notes.txt", "event.attachment", "text/plain", 18, sha1("line one\nline two\n"), eventId],
          ["page.html", "event.attachment", "text/html", html.length, sha1(html), eventId],
        ],
      );
      const dump = await server.api(`${base}${String(byName.get("crash.dmp")!.id)}/?download=1`);
      assert.equal(dump.status, 200);
      assert.ok(Buffer.from(await dump.arrayBuffer()).equals(minidump));
      const page = await server.api(`${base}${String(byName.get("page.html")!.id)}/?download=1`);
      assert.equal(await page.text(), html);
      assert.equal(page.headers.get("content-type"), "text/html");
      assert.equal(page.headers.get("content-disposition"), `attachment; filename="page.html"; filename*=UTF-8''page.html`);
      assert.equal(page.headers.get("x-content-type-options"), "nosniff");
      const scriptSources = /script-src([^;]*)/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
      assert.ok(scriptSources !== undefined && !scriptSources.includes("unsafe-inline"), "no inline script may run");
      const described = await server.api(`${base}${String(byName.get("notes.txt")!.id)}/`);
      assert.deepEqual(await described.json(), byName.get("notes.txt"));
      assert.equal((await server.api(`${base}${"0".repeat(32)}/?download=1`)).status, 404);
    });

    it("drops an oversized attachment alone, counted too_large, and keeps its event", async (t) => {
      if (skip) return t.skip("no PostgreSQL");
      const since = Date.now() - 60_000;
      const eventId = Sentry.withScope((scope) => {
        scope.addAttachment({ filename: "huge.bin", data: Buffer.alloc(MAX_ATTACHMENT + 1, 7) });
        scope.addAttachment({ filename: "small.txt", data: "fits" });
        return Sentry.captureMessage("oversized attachment beside me");
      });
      assert.equal(await Sentry.flush(5000), true);
      const slug = await projectSlug(server);
      const listed = await eventually("the small attachment", async () => {
        const response = await server.api(`/api/0/projects/default/${slug}/events/${eventId}/attachments/`);
        const body = (await response.json()) as Row[];
        return body.length > 0 ? body : undefined;
      });
      assert.deepEqual(listed.map((row) => row.name), ["small.txt"]);
      assert.equal((await server.api(`/api/0/projects/default/${slug}/events/${eventId}/`)).status, 200);
      const totals = await server.withStorage((storage) => storage.outcomes.totals(server.projectId, since));
      const tooLarge = totals.filter((total) => total.outcome === "invalid" && total.reason === "too_large");
      assert.deepEqual(tooLarge.map((total) => [total.category, total.quantity]).toSorted(), [["attachment", MAX_ATTACHMENT + 1], ["attachment_item", 1]]);
    });
  });
}

async function projectSlug(server: TestServer): Promise<string> {
  const projects = (await (await server.api("/api/0/organizations/default/projects/")).json()) as { id: string; slug: string }[];
  return projects.find((project) => project.id === server.projectId)!.slug;
}

engineSuite("sqlite");
engineSuite("postgres");
