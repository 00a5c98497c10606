/**
 * `client_report` items over real SDK output: each discarded-events entry becomes a
 * `client_discard` outcome dated by the report; malformed reports and entries are counted invalid.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { contextFor, edited, firstItem, fixture, invalid, process, PROJECT_ID } from "../helpers/items";

const REPORT_TIME = 1795313310.835 * 1000;
const discard = (category: string, reason: string, quantity: number, timestamp: number) => ({
  kind: "outcome", projectId: PROJECT_ID, outcome: "client_discard", category, reason, quantity, timestamp,
});

describe("client reports", () => {
  // Client reports carry no sent_at; the report was sent the moment it was dated.
  const context = contextFor(fixture("browser-client-report"), REPORT_TIME + 200);

  it("turns the browser's before_send discard into a client_discard outcome at the report's time", () => {
    assert.deepEqual(process(firstItem("browser-client-report"), context), { records: [discard("error", "before_send", 1, REPORT_TIME)] });
    const node = fixture("node-client-report");
    const nodeTime = 1795313305.769 * 1000;
    assert.deepEqual(process(firstItem("node-client-report"), contextFor(node, nodeTime + 10)), { records: [discard("error", "before_send", 1, nodeTime)] });
  });

  it("keeps several entries, dates an undated report by its arrival, and counts malformed entries invalid", () => {
    const item = edited(firstItem("browser-client-report"), () => ({
      discarded_events: [
        { reason: "sample_rate", category: "transaction", quantity: 3 },
        { reason: "queue_overflow", category: "span", quantity: 12 },
        { reason: "before_send", category: "error", quantity: 0 },
        { reason: "x".repeat(201), category: "error", quantity: 1 },
        { category: "error", quantity: 1 },
        { reason: "network_error", category: "Not A Category", quantity: 1 },
        "junk",
      ],
    }));
    assert.deepEqual(process(item, context), {
      records: [
        discard("transaction", "sample_rate", 3, context.receivedAt),
        discard("span", "queue_overflow", 12, context.receivedAt),
        invalid("internal", "invalid_json", context.receivedAt, 5),
      ],
    });
  });

  it("drops a report that is not JSON or is dated over 30 days back or over 60 s ahead", () => {
    const at = (timestamp: number) => process(edited(firstItem("browser-client-report"), (report) => ({ ...report, timestamp })), context);
    assert.deepEqual(process(edited(firstItem("browser-client-report"), () => "{"), context), { records: [invalid("internal", "invalid_json", context.receivedAt)] });
    assert.deepEqual(at(context.receivedAt / 1000 + 120), { records: [invalid("internal", "timestamp", context.receivedAt)] });
    assert.deepEqual(at(context.receivedAt / 1000 - 31 * 86_400), { records: [invalid("internal", "timestamp", context.receivedAt)] });
    assert.deepEqual(process(edited(firstItem("browser-client-report"), (report) => ({ ...report, discarded_events: 5 })), context), {
      records: [invalid("internal", "invalid_json", context.receivedAt)],
    });
  });
});
