/**
 * One item must never take its siblings down: an item whose processor throws is dropped and counted
 * as invalid, and the event beside it is still processed.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { parseEnvelope } from "../../src/ingest/envelope";
import { processEnvelope } from "../../src/ingest/pipeline";
import { createItemRegistry, type ItemRegistry } from "../../src/items";
import type { ItemContext } from "../../src/items/types";

const context: ItemContext = { projectId: "1", envelopeHeaders: {}, receivedAt: Date.UTC(2026, 10, 22), clientIp: undefined, userAgent: undefined };
const real = createItemRegistry({ maxEventBytes: 1_000_000 });
/** The real registry, except that one item type's processor has a bug. */
const withBrokenType: ItemRegistry = {
  processorFor: (type) =>
    type === "broken"
      ? { category: "unknown", maxBytes: null, process: () => { throw new RangeError("Maximum call stack size exceeded"); } }
      : real.processorFor(type),
};

it("drops and counts an item whose processor throws, and keeps the event beside it", () => {
  const envelope = parseEnvelope(Buffer.from('{"event_id":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}\n{"type":"broken"}\n{}\n{"type":"event"}\n{"message":"still here"}'));
  const processed = processEnvelope(envelope, withBrokenType, { ...context, envelopeHeaders: envelope.headers });
  assert.equal(processed.eventId, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
  assert.deepEqual(
    processed.records.map((record) =>
      record.kind === "outcome"
        ? `${record.outcome}/${record.category}/${record.reason}`
        : record.kind === "event"
          ? `event/${record.event.logentry?.formatted}`
          : record.kind,
    ),
    ["invalid/unknown/internal", "event/still here", "accepted/error/null"],
  );
});
