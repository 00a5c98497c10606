/**
 * The storage contract for streamed spans (v2 containers, `span_container` records), called once per
 * engine next to the other suites. Engines may store a container as they like (SQLite keeps one row
 * per container and trace, PostgreSQL one row per span); the reads must not tell: every span once,
 * lists newest first by end with stable paging, mixed with spans that came as rows.
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { readSpanContainer } from "../../src/items/span";
import type { IngestRecord, Project, SpanContainerRecord, SpanData, SpanListQuery, Storage, StoredSpan } from "../../src/storage/types";
import type { EngineFactory } from "./suite";
import { withTwoProjects } from "./two-projects";

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const TRACE_A = "aa".repeat(16);
const TRACE_B = "bb".repeat(16);
const TRACE_C = "cc".repeat(16);

const hex16 = (id: number) => id.toString(16).padStart(16, "0");

interface ItemSpec {
  id: number;
  trace: string;
  /** ms before NOW that the span ended; it started 500 ms earlier. */
  endsAgo: number;
  op: string;
  segment?: boolean;
  segmentName?: string;
}

/** A v2 container element as @sentry/browser streams it. */
function v2Item({ id, trace, endsAgo, op, segment = false, segmentName }: ItemSpec): Record<string, unknown> {
  const end = NOW - endsAgo;
  const attributes: Record<string, { type: string; value: string }> = {
    "sentry.op": { type: "string", value: op },
    "http.method": { type: "string", value: "GET" },
  };
  if (segmentName) attributes["sentry.segment.name"] = { type: "string", value: segmentName };
  return {
    trace_id: trace, span_id: hex16(id), name: `span ${id}`, status: "ok", is_segment: segment,
    start_timestamp: (end - 500) / 1000, end_timestamp: end / 1000, attributes,
  };
}

function container(projectId: string, items: ItemSpec[], receivedAt = NOW): SpanContainerRecord {
  return {
    kind: "span_container", projectId, json: JSON.stringify({ items: items.map(v2Item) }), itemCount: items.length,
    receivedAt, shift: 0, sdkName: "sentry.javascript.browser",
  };
}

/** The spans a container holds as the span reader makes them, as a store must give them back. */
const storedOf = (record: SpanContainerRecord): StoredSpan[] =>
  readSpanContainer(record).flatMap((read) => (read.kind === "span" ? [{ ...read.span, projectId: record.projectId }] : []));

/** A span that came as a row (v1 standalone span), not in a container. */
function standalone(projectId: string, id: number, trace: string, endsAgo: number, op: string): IngestRecord {
  const span: SpanData = {
    traceId: trace, spanId: hex16(id), parentSpanId: null, segmentId: null, eventId: null, isSegment: false, op, name: `row ${id}`,
    status: "ok", start: NOW - endsAgo - 500, end: NOW - endsAgo, segmentName: null, release: null, environment: null, sdkName: null,
    attributes: {}, measurements: {},
  };
  return { kind: "span", projectId, span };
}

const ids = (spans: { spanId: string }[]) => spans.map((span) => Number.parseInt(span.spanId, 16));

export function spanContract(engine: string, factory: EngineFactory): void {
  describe(`storage contract, streamed spans: ${engine}`, () => {
    let storage: Storage;
    let project: Project;
    let other: Project;
    withTwoProjects(factory, (made) => ({ storage, project, other } = made));

    /** Every page of a list, `limit` spans each, by following the cursors; the last page says there is no more. */
    async function allPages(query: Omit<SpanListQuery, "cursor" | "limit">, limit: number): Promise<number[][]> {
      const pages: number[][] = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 50; guard++) {
        const page = await storage.spans.list({ ...query, limit, ...(cursor ? { cursor } : {}) });
        pages.push(ids(page.items));
        if (!page.nextCursor) return pages;
        cursor = page.nextCursor;
      }
      throw new Error("the list never ended");
    }

    it("gives back a container's spans whole, in their trace and in the list", async () => {
      const record = container(project.id, [
        { id: 0x11, trace: TRACE_A, endsAgo: 1_000, op: "pageload", segment: true, segmentName: "/checkout" },
        { id: 0x12, trace: TRACE_A, endsAgo: 3_000, op: "db", segmentName: "/checkout" },
        { id: 0x21, trace: TRACE_B, endsAgo: 2_000, op: "db" },
      ]);
      assert.deepEqual(await storage.ingest.commit([record]), [{ kind: "span" }]);

      const read = storedOf(record);
      const traceA = await storage.spans.trace([project.id], TRACE_A);
      assert.deepEqual(traceA, [read[1], read[0]]);
      assert.deepEqual(traceA[1], {
        projectId: project.id, traceId: TRACE_A, spanId: hex16(0x11), parentSpanId: null, segmentId: hex16(0x11), eventId: null,
        isSegment: true, op: "pageload", name: "span 17", status: "ok", start: NOW - 1_500, end: NOW - 1_000, segmentName: "/checkout",
        release: null, environment: null, sdkName: "sentry.javascript.browser",
        attributes: { "sentry.op": "pageload", "http.method": "GET", "sentry.segment.name": "/checkout" }, measurements: {},
      });
      assert.deepEqual(await storage.spans.trace([project.id], TRACE_B), [read[2]]);
      assert.deepEqual((await storage.spans.list({ projectIds: [project.id], limit: 10 })).items, [read[0], read[2], read[1]]);
      assert.deepEqual(await storage.spans.trace([other.id], TRACE_A), []);
      assert.deepEqual((await storage.spans.list({ projectIds: [other.id], limit: 10 })).items, []);
    });

    it("stores a retried container once, and of a container repeating an earlier one's spans only the new ones", async () => {
      const first = container(project.id, [
        { id: 0x11, trace: TRACE_A, endsAgo: 1_000, op: "pageload", segment: true },
        { id: 0x12, trace: TRACE_A, endsAgo: 3_000, op: "db" },
      ]);
      await storage.ingest.commit([first]);
      assert.deepEqual(await storage.ingest.commit([first]), [{ kind: "span" }]);
      await storage.ingest.commit([container(project.id, [
        { id: 0x12, trace: TRACE_A, endsAgo: 3_000, op: "db" },
        { id: 0x13, trace: TRACE_A, endsAgo: 2_000, op: "db" },
      ])]);
      assert.deepEqual(ids(await storage.spans.trace([project.id], TRACE_A)), [0x12, 0x13, 0x11]);
      assert.deepEqual(await allPages({ projectIds: [project.id] }, 1), [[0x11], [0x13], [0x12]]);
      assert.deepEqual(await allPages({ projectIds: [project.id] }, 10), [[0x11, 0x13, 0x12]]);
    });

    describe("with overlapping containers, a container spanning minutes, spans stored as rows and another project", () => {
      beforeEach(async () => {
        await storage.ingest.commit([
          container(project.id, [
            { id: 0x11, trace: TRACE_A, endsAgo: 1_000, op: "pageload", segment: true, segmentName: "/checkout" },
            { id: 0x12, trace: TRACE_A, endsAgo: 3_000, op: "db", segmentName: "/checkout" },
            { id: 0x13, trace: TRACE_A, endsAgo: 5_000, op: "http.client", segmentName: "/checkout" },
          ]),
          container(project.id, [
            { id: 0x21, trace: TRACE_B, endsAgo: 2_000, op: "db" },
            { id: 0x22, trace: TRACE_B, endsAgo: 4_000, op: "http.client" },
            { id: 0x23, trace: TRACE_B, endsAgo: 7_000, op: "db" },
          ]),
          standalone(project.id, 0x41, TRACE_A, 2_500, "ui"),
          // Ends 190 s apart, and one span of another trace: more than one row on engines that keep containers.
          container(project.id, [
            { id: 0x31, trace: TRACE_C, endsAgo: 10_000, op: "resource" },
            { id: 0x32, trace: TRACE_C, endsAgo: 100_000, op: "resource" },
            { id: 0x33, trace: TRACE_C, endsAgo: 190_000, op: "resource" },
            { id: 0x34, trace: TRACE_C, endsAgo: 7_000, op: "resource" },
            { id: 0x24, trace: TRACE_B, endsAgo: 8_000, op: "db" },
          ]),
          standalone(project.id, 0x42, TRACE_C, 95_000, "db"),
          container(other.id, [{ id: 0x51, trace: TRACE_A, endsAgo: 1_500, op: "db" }]),
        ]);
      });

      const NEWEST_FIRST = [0x11, 0x21, 0x41, 0x12, 0x22, 0x13, 0x34, 0x23, 0x24, 0x31, 0x42, 0x32, 0x33];

      it("lists every span once, newest first by end (ties by span id), on pages of any size", async () => {
        assert.deepEqual((await allPages({ projectIds: [project.id] }, 20)).flat(), NEWEST_FIRST);
        for (const limit of [1, 2, 3, 5]) {
          const pages = await allPages({ projectIds: [project.id] }, limit);
          assert.deepEqual(pages.flat(), NEWEST_FIRST, `limit ${limit}`);
          assert.ok(pages.slice(0, -1).every((page) => page.length === limit), `limit ${limit}: ${JSON.stringify(pages)}`);
        }
        assert.deepEqual((await allPages({ projectIds: [project.id, other.id] }, 4)).flat(), [0x11, 0x51, ...NEWEST_FIRST.slice(1)]);
      });

      it("filters by op, segment, segment name and trace, paging through each", async () => {
        const query = { projectIds: [project.id] };
        assert.deepEqual(await allPages({ ...query, op: "db" }, 2), [[0x21, 0x12], [0x23, 0x24], [0x42]]);
        assert.deepEqual(await allPages({ ...query, isSegment: true }, 2), [[0x11]]);
        assert.deepEqual((await allPages({ ...query, isSegment: false }, 3)).flat(), NEWEST_FIRST.slice(1));
        assert.deepEqual(await allPages({ ...query, segmentName: "/checkout" }, 2), [[0x11, 0x12], [0x13]]);
        assert.deepEqual(await allPages({ ...query, traceId: TRACE_B }, 3), [[0x21, 0x22, 0x23], [0x24]]);
        assert.deepEqual(await allPages({ ...query, traceId: TRACE_C, op: "resource" }, 10), [[0x34, 0x31, 0x32, 0x33]]);
        assert.deepEqual(await allPages({ ...query, traceId: TRACE_C }, 2), [[0x34, 0x31], [0x42, 0x32], [0x33]]);
        assert.deepEqual(await allPages({ ...query, traceId: TRACE_A, op: "ui" }, 2), [[0x41]]);
        assert.deepEqual(await allPages({ ...query, op: "nothing" }, 2), [[]]);
      });

      it("gives a trace's spans by start, from containers and rows alike", async () => {
        assert.deepEqual(ids(await storage.spans.trace([project.id], TRACE_C)), [0x33, 0x32, 0x42, 0x31, 0x34]);
        assert.deepEqual(ids(await storage.spans.trace([project.id, other.id], TRACE_A)), [0x13, 0x12, 0x41, 0x51, 0x11]);
        assert.deepEqual(ids(await storage.spans.trace([other.id], TRACE_A)), [0x51]);
      });
    });
  });
}
