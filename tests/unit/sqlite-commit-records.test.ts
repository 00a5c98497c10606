/**
 * What the commit thread is handed (commit-records.ts): the tag list as one string, which comes back
 * as it went in, including tags that hold the separator itself; and a batch's outcome records summed
 * per counter, with every record given still getting its own result, in order.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { decodeTags, encodeTags, handOver } from "../../src/storage/sqlite/commit-records";
import type { IngestRecord, IngestRecordResult } from "../../src/model";

const lists: [string, [string, string][]][] = [
  ["no tags", []],
  ["one tag", [["level", "error"]]],
  ["derived and SDK tags", [["browser", "Chrome 120"], ["environment", "production"], ["level", "error"], ["url", "https://example.com/a?b=c&d"]]],
  ["NUL in a value", [["level", "error"], ["note", "a\u0000b"]]],
  ["NUL at the start of a key", [["\u0000key", "v"]]],
  ["JSON-looking and unicode text", [["[", "]"], ["emoji", "\u{1F600} ü"], ["quote", "\"\\"]]],
];

for (const [name, tags] of lists) {
  it(`round-trips ${name}`, () => {
    assert.deepEqual(decodeTags(encodeTags(tags)), tags);
  });
}

it("joins plain tags with NUL and sends tags that hold NUL as JSON behind one", () => {
  assert.equal(encodeTags([["level", "error"], ["os", "Linux"]]), "level\u0000error\u0000os\u0000Linux");
  assert.equal(encodeTags([["note", "a\u0000b"]]), '\u0000[["note","a\\u0000b"]]');
  assert.equal(encodeTags([]), "");
});

const HOUR = 3_600_000;
const at = Date.UTC(2026, 10, 24, 20, 15);
type Outcome = Extract<IngestRecord, { kind: "outcome" }>;
const outcome = (fields: Partial<Outcome>): Outcome => ({
  kind: "outcome", projectId: "1", outcome: "accepted", category: "error", reason: null, quantity: 1, timestamp: at, ...fields,
});
const session: IngestRecord = {
  kind: "session_update",
  projectId: "1",
  update: { sid: "0123456789abcdef0123456789abcdef", did: null, seq: 1, init: true, started: at, timestamp: at, status: "ok", errors: 0, duration: null, release: "app@1.0.0", environment: "production" },
};
const sessionResult: IngestRecordResult = { kind: "session_update" };

it("hands a batch's outcomes over summed per counter, after the other records, and answers each record given in order", () => {
  const given: IngestRecord[] = [
    outcome({}),
    session,
    outcome({ timestamp: at + 60_000 }),
    outcome({ outcome: "invalid", reason: "invalid_json" }),
    outcome({ quantity: 4 }),
    outcome({ timestamp: at + HOUR }),
    outcome({ projectId: "2" }),
    outcome({ category: "session" }),
  ];
  const handed = handOver(given);
  assert.deepEqual(handed.records, [
    session,
    outcome({ quantity: 6 }),
    outcome({ outcome: "invalid", reason: "invalid_json" }),
    outcome({ timestamp: at + HOUR }),
    outcome({ projectId: "2" }),
    outcome({ category: "session" }),
  ]);
  // The records given are not changed by the summing.
  assert.deepEqual(given[0], outcome({}));
  const outcomeResults = handed.records.slice(1).map((): IngestRecordResult => ({ kind: "outcome" }));
  assert.deepEqual(handed.resultsOf([sessionResult, ...outcomeResults]), [
    { kind: "outcome" }, sessionResult, { kind: "outcome" }, { kind: "outcome" }, { kind: "outcome" }, { kind: "outcome" }, { kind: "outcome" }, { kind: "outcome" },
  ]);
});

it("hands a batch without outcomes over as it is", () => {
  const handed = handOver([session]);
  assert.deepEqual(handed.records, [session]);
  assert.deepEqual(handed.resultsOf([sessionResult]), [sessionResult]);
});
