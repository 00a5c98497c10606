/**
 * `session` items over real SDK output (browser sessions end `unhandled` after an uncaught error,
 * Node's end `exited`), and every reason an update is dropped: each drop is one `invalid` outcome
 * and never affects the other items of the envelope.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { processEnvelope } from "../../src/ingest/pipeline";
import { createItemRegistry } from "../../src/items";
import { accepted, contextFor, edited, firstItem, fixture, invalid, process, PROJECT_ID } from "../helpers/items";

const RELEASE = "periscope-fixtures@1.0.0";
const ms = (iso: string) => Date.parse(iso);

describe("session items from real SDKs", () => {
  it("stores the browser's first update (init, ok) with its attributes", () => {
    const envelope = fixture("browser-session-ok");
    const context = contextFor(envelope);
    assert.deepEqual(process(firstItem("browser-session-ok"), context), {
      records: [
        {
          kind: "session_update", projectId: PROJECT_ID,
          update: {
            sid: "80e88d54a4824bdc8cdb630c19b94acc", did: null, seq: ms("2026-11-22T02:08:27.802Z"), init: true,
            started: ms("2026-11-22T02:08:27.801Z"), timestamp: ms("2026-11-22T02:08:27.802Z"), status: "ok", errors: 0,
            duration: null, release: RELEASE, environment: "fixtures",
          },
        },
        accepted("session", context.receivedAt),
      ],
    });
  });

  it("stores the browser's unhandled end and Node's exited end", () => {
    const browser = contextFor(fixture("browser-tunnel-session-unhandled"));
    assert.deepEqual(process(firstItem("browser-tunnel-session-unhandled"), browser).records[0], {
      kind: "session_update", projectId: PROJECT_ID,
      update: {
        sid: "e8b11f4e8a4a4edf8650c3f6f4396854", did: null, seq: ms("2026-11-22T02:08:32.655Z"), init: false,
        started: ms("2026-11-22T02:08:32.561Z"), timestamp: ms("2026-11-22T02:08:32.655Z"), status: "unhandled", errors: 1,
        duration: null, release: RELEASE, environment: "fixtures",
      },
    });
    const node = contextFor(fixture("node-session-exited"));
    assert.deepEqual(process(firstItem("node-session-exited"), node).records[0], {
      kind: "session_update", projectId: PROJECT_ID,
      update: {
        sid: "d83e1ba08be24a34abdf544b90c4ca46", did: null, seq: ms("2026-11-22T02:08:25.768Z"), init: false,
        started: ms("2026-11-22T02:08:25.713Z"), timestamp: ms("2026-11-22T02:08:25.768Z"), status: "exited", errors: 1,
        duration: 0.055613040924072266, release: RELEASE, environment: "fixtures",
      },
    });
  });

  it("keeps seq and did when sent, drops only an invalid environment, and stamps an update before its start at the start", () => {
    const item = edited(firstItem("browser-session-ok"), (session) => ({
      ...session, seq: 42, did: "user-17", timestamp: "2026-11-22T02:08:27.000Z",
      attrs: { release: RELEASE, environment: "prod/eu" },
    }));
    const [record] = process(item, contextFor(fixture("browser-session-ok"))).records;
    assert.deepEqual(record, {
      kind: "session_update", projectId: PROJECT_ID,
      update: {
        sid: "80e88d54a4824bdc8cdb630c19b94acc", did: "user-17", seq: 42, init: true,
        started: ms("2026-11-22T02:08:27.801Z"), timestamp: ms("2026-11-22T02:08:27.801Z"), status: "ok", errors: 0,
        duration: null, release: RELEASE, environment: null,
      },
    });
  });

  it("corrects a client clock that is hours off by the envelope's sent_at, and ignores small drift", () => {
    const envelope = fixture("browser-session-ok");
    const sentAt = ms(String(envelope.headers.sent_at));
    const later = process(firstItem("browser-session-ok"), contextFor(envelope, sentAt + 2 * 3_600_000)).records[0];
    assert.equal(later?.kind === "session_update" && later.update.started, ms("2026-11-22T02:08:27.801Z") + 2 * 3_600_000);
    const close = process(firstItem("browser-session-ok"), contextFor(envelope, sentAt + 50 * 60_000)).records[0];
    assert.equal(close?.kind === "session_update" && close.update.started, ms("2026-11-22T02:08:27.801Z"));
  });
});

describe("invalid session updates", () => {
  const envelope = fixture("browser-session-ok");
  const context = contextFor(envelope);
  const drop = (edit: (session: Record<string, unknown>) => unknown) => process(edited(firstItem("browser-session-ok"), edit), context);

  it("drops an update without a valid release", () => {
    for (const release of [undefined, "", "latest", ".", "..", " ", "a/b", "a\\b", "line\nbreak", "tab\there", "x".repeat(201), 5]) {
      assert.deepEqual(drop((session) => ({ ...session, attrs: { release, environment: "fixtures" } })), {
        records: [invalid("session", "invalid_release", context.receivedAt)],
      }, `release ${JSON.stringify(release)}`);
    }
    assert.deepEqual(drop((session) => ({ ...session, attrs: undefined })), { records: [invalid("session", "invalid_release", context.receivedAt)] });
  });

  it("drops an update that is not JSON or whose fields have the wrong type", () => {
    const cases: [string, (session: Record<string, unknown>) => unknown][] = [
      ["not JSON", () => "{not json"],
      ["an array", () => [1, 2]],
      ["no started", (session) => ({ ...session, started: undefined })],
      ["started not a time", (session) => ({ ...session, started: "yesterday" })],
      ["sid not a UUID", (session) => ({ ...session, sid: "session-1" })],
      ["negative errors", (session) => ({ ...session, errors: -1 })],
      ["init not a boolean", (session) => ({ ...session, init: "yes" })],
      ["status not a string", (session) => ({ ...session, status: 3 })],
      ["negative duration", (session) => ({ ...session, duration: -2 })],
      ["fractional seq", (session) => ({ ...session, seq: 1.5 })],
    ];
    for (const [what, edit] of cases) {
      assert.deepEqual(drop(edit), { records: [invalid("session", "invalid_json", context.receivedAt)] }, what);
    }
  });

  it("drops an update started more than 5 days ago or more than 60 s ahead", () => {
    const started = ms("2026-11-22T02:08:27.801Z");
    const item = firstItem("browser-session-ok");
    const at = (receivedAt: number) => process(item, contextFor(envelope, receivedAt));
    // sent_at is ignored here: the drift would be corrected, so send none.
    const noSentAt = { ...envelope, headers: { sdk: envelope.headers.sdk } };
    const atNoDrift = (receivedAt: number) => process(item, contextFor(noSentAt, receivedAt));
    assert.deepEqual(atNoDrift(started + 5 * 86_400_000 + 1000), { records: [invalid("session", "timestamp", started + 5 * 86_400_000 + 1000)] });
    assert.deepEqual(atNoDrift(started - 61_000), { records: [invalid("session", "timestamp", started - 61_000)] });
    assert.equal(atNoDrift(started + 4 * 86_400_000).records[0]?.kind, "session_update");
    assert.equal(at(started - 30_000).records[0]?.kind, "session_update");
  });

  it("leaves the other items of the envelope alone", () => {
    const good = firstItem("browser-session-ok");
    const bad = edited(good, (session) => ({ ...session, attrs: { release: "latest" } }));
    const report = firstItem("browser-client-report");
    const { records, eventId } = processEnvelope({ headers: envelope.headers, items: [bad, good, report] }, createItemRegistry({ maxEventBytes: 1 << 20 }), context);
    assert.deepEqual(
      { eventId, kinds: records.map((record) => (record.kind === "outcome" ? `${record.outcome}:${record.category}:${record.reason}` : record.kind)) },
      { eventId: null, kinds: ["invalid:session:invalid_release", "session_update", "accepted:session:null", "client_discard:error:before_send"] },
    );
  });
});
