/**
 * The storage contract for performance reads (issue 36), called once per engine: the errors captured
 * inside a trace (events whose contexts.trace names it).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { GroupingResult, NormalizedEvent } from "../../src/processing/types";
import type { IngestRecord, Project, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";
import { withTwoProjects } from "./two-projects";

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const TRACE = "ab".repeat(16);
const OTHER_TRACE = "cd".repeat(16);

function errorEvent(id: number, seconds: number, trace: Record<string, unknown> | null): NormalizedEvent {
  return {
    event_id: id.toString(16).padStart(32, "0"), timestamp: NOW / 1000 + seconds, received: NOW / 1000, platform: "node", level: "error",
    environment: "production", tags: [], contexts: trace ? { trace } : {}, breadcrumbs: [],
    exception: [{ type: "Error", value: `failure ${id}` }], errors: [],
  };
}

const grouping: GroupingResult = {
  hash: "7".repeat(32), strategy: "exception", config: "test:1", title: "Error: failure", culprit: "api in handler",
  metadata: { type: "Error" }, eventType: "error",
};

const record = (project: Project, event: NormalizedEvent): IngestRecord => ({
  kind: "event", projectId: project.id, event, payload: JSON.stringify(event), grouping, userKey: null,
});

export function traceContract(engine: string, factory: EngineFactory): void {
  describe(`storage contract, traces: ${engine}`, () => {
    let storage: Storage;
    let project: Project;
    let other: Project;
    withTwoProjects(factory, (made) => ({ storage, project, other } = made));

    it("finds the errors captured inside a trace, in every project asked for, oldest first", async () => {
      await storage.ingest.commit([
        record(project, errorEvent(1, 2, { trace_id: TRACE, span_id: "1".repeat(16) })),
        // Upper case and dashes are the same trace id (some SDKs send a UUID form).
        record(other, errorEvent(2, 1, { trace_id: "AB".repeat(4) + "-" + "ab".repeat(12), span_id: "2".repeat(16) })),
        record(project, errorEvent(3, 0, { trace_id: OTHER_TRACE, span_id: "3".repeat(16) })),
        record(project, errorEvent(4, 0, null)),
        record(project, errorEvent(5, 0, { trace_id: "not a trace" })),
      ]);
      const ids = (events: { eventId: string }[]) => events.map((event) => Number.parseInt(event.eventId, 16));
      assert.deepEqual(ids(await storage.events.ofTrace([project.id, other.id], TRACE, 10)), [2, 1]);
      assert.deepEqual(ids(await storage.events.ofTrace([project.id], TRACE, 10)), [1]);
      assert.deepEqual(ids(await storage.events.ofTrace([project.id, other.id], TRACE, 1)), [2]);
      assert.deepEqual(ids(await storage.events.ofTrace([project.id], OTHER_TRACE, 10)), [3]);
      assert.deepEqual(await storage.events.ofTrace([project.id], "ef".repeat(16), 10), []);
      const [found] = await storage.events.ofTrace([project.id], TRACE, 10);
      assert.equal(found?.payload.contexts.trace?.span_id, "1".repeat(16));
    });
  });
}
