/**
 * The per-field user keys issue search reads (user.id, user.email, user.username, user.ip): derived
 * from what the event's user carried, after scrubbing, and counted beside the event's own tags.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eventItem } from "../../src/items/event";
import type { ItemContext } from "../../src/items/types";
import { DEFAULT_PRIVACY, effectivePrivacy, type IngestRecord } from "../../src/model";
import { counterTagsOf, USER_FIELD_TAG_KEYS } from "../../src/processing/normalize-tags";
import { compileScrubber } from "../../src/processing/scrub/scrubber";
import { decodeTags, toCommitRecord } from "../../src/storage/sqlite/commit-records";

const context = (scrubber?: ItemContext["scrubber"]): ItemContext => ({
  projectId: "1", envelopeHeaders: {}, receivedAt: Date.now(), clientIp: "203.0.113.9", userAgent: undefined, scrubber,
});

function recordOf(json: object, ctx = context()): Extract<IngestRecord, { kind: "event" }> {
  const [record] = eventItem(1_000_000).process({ headers: { type: "event" }, payload: Buffer.from(JSON.stringify(json)) }, ctx).records;
  assert.equal(record?.kind, "event");
  return record as Extract<IngestRecord, { kind: "event" }>;
}

const userFields = (tags: [string, string][]) => tags.filter(([key]) => USER_FIELD_TAG_KEYS.has(key));

describe("user field tags", () => {
  test("each field the user has becomes its own key; the user tag keeps the strongest identifier", () => {
    const { event } = recordOf({ message: "m", user: { id: 42, email: "ann@example.com", username: "ann", ip_address: "198.51.100.7", name: "Ann" } });
    const tags = counterTagsOf(event);
    assert.deepEqual(userFields(tags), [["user.id", "42"], ["user.email", "ann@example.com"], ["user.username", "ann"], ["user.ip", "198.51.100.7"]]);
    assert.deepEqual(tags.find(([key]) => key === "user"), ["user", "id:42"]);
    // Only the counters see them: the event's own tags (stored, shown on the event) do not.
    assert.deepEqual(userFields(event.tags), []);
  });

  test("only the fields present; none without a user", () => {
    assert.deepEqual(userFields(counterTagsOf(recordOf({ message: "m", user: { email: "bob@example.com" } }).event)), [["user.email", "bob@example.com"]]);
    const bare = recordOf({ message: "m" }).event;
    assert.deepEqual(userFields(counterTagsOf(bare)), []);
    assert.equal(counterTagsOf(bare), bare.tags, "no copy when there is nothing to add");
  });

  test("an SDK tag of the same key wins", () => {
    const tags = counterTagsOf(recordOf({ message: "m", tags: { "user.email": "sdk-set" }, user: { email: "ann@example.com" } }).event);
    assert.deepEqual(userFields(tags), [["user.email", "sdk-set"]]);
  });

  test("{{auto}} becomes the client's address; scrubbed IP addresses never become a value", () => {
    const auto = { message: "m", user: { id: "7", ip_address: "{{auto}}" } };
    assert.deepEqual(userFields(counterTagsOf(recordOf(auto).event)), [["user.id", "7"], ["user.ip", "203.0.113.9"]]);
    const scrubber = compileScrubber(effectivePrivacy(DEFAULT_PRIVACY, { ...DEFAULT_PRIVACY, scrubIPAddresses: true }));
    assert.ok(scrubber);
    for (const ip of ["{{auto}}", "198.51.100.7"]) {
      const record = recordOf({ message: "m", user: { id: "7", ip_address: ip } }, context(scrubber));
      assert.deepEqual(userFields(counterTagsOf(record.event)), [["user.id", "7"]], ip);
      assert.equal(JSON.stringify(toCommitRecord(record)).includes("203.0.113.9"), false);
      assert.equal(JSON.stringify(toCommitRecord(record)).includes("198.51.100.7"), false);
    }
  });

  test("the SQLite commit record carries them to the issue counters", () => {
    const commit = toCommitRecord(recordOf({ message: "m", user: { id: "7", email: "dan@example.com" } }));
    assert.equal(commit.kind, "event");
    if (commit.kind !== "event") return;
    assert.deepEqual(userFields(decodeTags(commit.tags)), [["user.id", "7"], ["user.email", "dan@example.com"]]);
  });
});
