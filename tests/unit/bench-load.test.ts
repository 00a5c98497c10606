/**
 * The benchmark's load generator (bench/load.ts) against a real node:http server that counts the
 * TCP connections it accepts: runs given the same connections reuse them, runs without open their
 * own, and a connection count that does not match the connections given is refused.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { probeFsync } from "../../bench/disk";
import { IdSource, makeTemplate, openConnections, paceWarning, ratesBySlice, runLoad, SLICE_SECONDS, sliceOf, type Template } from "../../bench/load";

const ENVELOPE = Buffer.from('{"event_id":"0123456789abcdef0123456789abcdef"}\n{"type":"event"}\n{"event_id":"0123456789abcdef0123456789abcdef"}\n');

describe("bench load generator", () => {
  let server: Server;
  let url: string;
  let accepted = 0;
  const bodies: string[] = [];
  const templates: Template[] = [makeTemplate(ENVELOPE)];

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        bodies.push(Buffer.concat(chunks).toString("latin1"));
        res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "2" }).end("{}");
      });
    });
    server.on("connection", () => accepted++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/1/envelope/`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("goes on over the connections it is given, and opens its own otherwise", async () => {
    accepted = 0;
    const over = openConnections(url, 3);
    const first = await runLoad({ url, templates, connections: 3, seconds: 0.2, over });
    const second = await runLoad({ url, templates, connections: 3, seconds: 0.2, over });
    assert.equal(accepted, 3, "the second run reused the first run's three connections");
    for (const connection of over) connection.close();

    await runLoad({ url, templates, connections: 2, seconds: 0.2 });
    assert.equal(accepted, 5, "a run without connections given opened two of its own");

    for (const result of [first, second]) {
      assert.ok(result.sent > 0);
      assert.deepEqual({ accepted: result.accepted, rejected: result.rejected }, { accepted: result.sent, rejected: {} });
      assert.equal(result.acceptedIds.length, result.sent);
      // A run shorter than a slice has one, holding every answer, those after the deadline too.
      assert.deepEqual(result.acceptedPerSlice, [result.accepted]);
    }
    // Every request carried a fresh event id in both places the template had one.
    const ids = bodies.map((body) => {
      const [header, , event] = body.split("\n").map((line) => JSON.parse(line || "{}") as { event_id?: string });
      assert.equal(header!.event_id, event!.event_id);
      return header!.event_id;
    });
    assert.equal(new Set(ids).size, ids.length);
    assert.ok(!ids.includes("0123456789abcdef0123456789abcdef"));
  });

  it("refuses connections that do not match the count asked for", async () => {
    const over = openConnections(url, 2);
    await assert.rejects(runLoad({ url, templates, connections: 3, seconds: 0.1, over }), {
      message: "runLoad: 3 connections asked for, 2 given",
    });
  });
});

describe("bench id source", () => {
  it("hands out distinct 32-hex ids across draws, and an id handed out is not overwritten by the next draw", () => {
    const source = new IdSource();
    const firstId = source.take();
    const first = firstId.toString("latin1");
    const ids = [firstId, ...Array.from({ length: 2999 }, () => source.take())];
    const texts = ids.map((id) => id.toString("latin1"));
    assert.equal(new Set(texts).size, 3000);
    assert.deepEqual(texts.filter((text) => !/^[0-9a-f]{32}$/.test(text)), []);
    assert.equal(firstId.toString("latin1"), first, "the first id, taken two draws ago, is unchanged");
  });
});

describe("bench pace warning", () => {
  it("warns when a paced run sent at 97 % of its rate or more, and not otherwise", () => {
    assert.equal(
      paceWarning(6959.4, 7000),
      "sent 6959 requests/s of the 7000/s offered (--rate): the pace may have set this figure, not the server; raise --rate to measure capacity",
    );
    assert.equal(paceWarning(6790, 7000), "sent 6790 requests/s of the 7000/s offered (--rate): the pace may have set this figure, not the server; raise --rate to measure capacity");
    assert.equal(paceWarning(6789, 7000), null);
    assert.equal(paceWarning(6371, 8000), null);
    assert.equal(paceWarning(50_000, undefined), null);
  });
});

describe("bench throughput per slice", () => {
  it("divides each slice's answers by its length, the last by what was left of the run", () => {
    assert.equal(SLICE_SECONDS, 10);
    assert.deepEqual(ratesBySlice([70_000, 60_000, 2_750], 25.5), [7_000, 6_000, 500]);
    assert.deepEqual(ratesBySlice([70_000, 60_500], 20.05), [7_000, 60_500 / 10.05]);
    assert.deepEqual(ratesBySlice([0, 4_000], 20), [0, 400]);
    assert.deepEqual(ratesBySlice([300], 0.25), [1_200]);
  });

  it("counts an answer in the slice of its time since the start, and one after the deadline in the last", () => {
    assert.deepEqual([0, 9_999, 10_000, 25_000, 59_999].map((ms) => sliceOf(ms, 6)), [0, 0, 1, 2, 5]);
    assert.deepEqual([60_000, 60_040].map((ms) => sliceOf(ms, 6)), [5, 5]);
    assert.equal(sliceOf(250, 1), 0);
  });
});

describe("bench disk probe", () => {
  it("times real fdatasyncs of a file of its own, and leaves nothing behind", () => {
    const parent = mkdtempSync(path.join(tmpdir(), "periscope-probe-test-"));
    try {
      const probe = probeFsync(parent, 0.2);
      assert.ok(probe.fsyncs > 0, `${probe.fsyncs} fsyncs in 0.2 s`);
      assert.ok(probe.p50Ms > 0 && probe.p50Ms <= probe.p99Ms && probe.p99Ms <= probe.maxMs, JSON.stringify(probe));
      assert.ok(probe.slow >= 0 && probe.slow <= probe.fsyncs);
      assert.deepEqual(readdirSync(parent), []);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
