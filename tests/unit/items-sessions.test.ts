/** `sessions` items (request-mode aggregates) over real @sentry/node output, and their drops. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { accepted, contextFor, edited, firstItem, fixture, invalid, process, PROJECT_ID } from "../helpers/items";

const NAME = "telemetry/node-http-sessions";
const STARTED = Date.parse("2026-11-22T02:34:00.000Z");

describe("sessions items", () => {
  const context = contextFor(fixture(NAME));

  it("stores each aggregate bucket with the item's attributes, counting one session item per bucket", () => {
    assert.deepEqual(process(firstItem(NAME), context), {
      records: [
        {
          kind: "session_aggregate", projectId: PROJECT_ID,
          aggregate: {
            started: STARTED, did: null, exited: 1, errored: 1, abnormal: 0, unhandled: 0, crashed: 0,
            release: "periscope-fixtures@1.0.0", environment: "fixtures",
          },
        },
        accepted("session", context.receivedAt),
      ],
    });
  });

  it("drops a bad bucket alone and a bad release for all buckets", () => {
    const item = edited(firstItem(NAME), (payload) => {
      const [bucket] = payload.aggregates as Record<string, unknown>[];
      payload.aggregates = [
        { ...bucket, did: "user-1" },
        { ...bucket, started: "2026-11-10T00:00:00Z" },
        { ...bucket, exited: -1 },
        { ...bucket, started: "soon" },
      ];
    });
    assert.deepEqual(process(item, context), {
      records: [
        {
          kind: "session_aggregate", projectId: PROJECT_ID,
          aggregate: {
            started: STARTED, did: "user-1", exited: 1, errored: 1, abnormal: 0, unhandled: 0, crashed: 0,
            release: "periscope-fixtures@1.0.0", environment: "fixtures",
          },
        },
        accepted("session", context.receivedAt),
        invalid("session", "timestamp", context.receivedAt),
        invalid("session", "invalid_json", context.receivedAt, 2),
      ],
    });
    const noRelease = edited(item, (payload) => ({ ...payload, attrs: { environment: "fixtures" } }));
    assert.deepEqual(process(noRelease, context), { records: [invalid("session", "invalid_release", context.receivedAt, 4)] });
  });

  it("drops an item that is not JSON or has no aggregates list", () => {
    for (const edit of [() => "nope", (payload: Record<string, unknown>) => ({ ...payload, aggregates: {} })]) {
      assert.deepEqual(process(edited(firstItem(NAME), edit), context), { records: [invalid("session", "invalid_json", context.receivedAt)] });
    }
  });
});
