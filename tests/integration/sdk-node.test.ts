/**
 * The real `@sentry/node` SDK, running in this test process, pointed at a real Periscope: what it
 * captures comes back through the REST API as Sentry would show it — cause chains in order, stack
 * frames from this file marked in-app, messages as message issues, custom fingerprints, grouping by
 * code path rather than by message, and regressions of resolved issues.
 *
 * The SDK is a process-wide singleton: it is initialised once for the file and closed at the end.
 */
import * as Sentry from "@sentry/node";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type TestServer } from "../helpers/server";

let server: TestServer;
let projectSlug: string;

type Json = Record<string, unknown>;
interface Frame {
  filename: string | null;
  absPath: string | null;
  function: string | null;
  inApp: boolean;
  lineNo: number | null;
  context: [number, string][];
}
interface ExceptionValue {
  type: string;
  value: string;
  mechanism: Json;
  stacktrace: { frames: Frame[] } | null;
}
interface EventJson extends Json {
  groupID: string;
  entries: { type: string; data: Json }[];
}
interface GroupJson extends Json {
  id: string;
  count: string;
}

async function get<T>(path: string): Promise<T> {
  const response = await server.api(path, { redirect: "manual" });
  assert.equal(response.status, 200, `GET ${path}`);
  return (await response.json()) as T;
}

/** Captures, waits until the SDK has delivered everything, and returns the stored event. */
async function stored(capture: () => string): Promise<EventJson> {
  const eventId = capture();
  assert.equal(await Sentry.flush(5000), true, "SDK flushed");
  return get<EventJson>(`/api/0/projects/default/${projectSlug}/events/${eventId}/`);
}

const issueOf = (event: EventJson) => get<GroupJson>(`/api/0/issues/${event.groupID}/`);

function exceptionValues(event: EventJson): ExceptionValue[] {
  const entry = event.entries.find((candidate) => candidate.type === "exception");
  assert.ok(entry, "exception entry");
  return (entry.data as { values: ExceptionValue[] }).values;
}

function failWith(message: string): never {
  throw new Error(message);
}

function failDifferently(): never {
  throw new Error("a different code path");
}

function failPayment(message: string): never {
  throw new Error(message);
}

function failInBackgroundJob(): never {
  throw new RangeError("job queue overflow");
}

function captureThrown(fail: () => never): string {
  try {
    fail();
  } catch (error) {
    return Sentry.captureException(error);
  }
}

before(async () => {
  server = await startServer();
  const response = await server.api(`/api/0/teams/default/default/projects/`, {
    method: "POST",
    body: JSON.stringify({ name: "Node SDK", platform: "node" }),
  });
  assert.equal(response.status, 201);
  projectSlug = ((await response.json()) as { slug: string }).slug;
  const [key] = await get<{ dsn: { public: string } }[]>(`/api/0/projects/default/${projectSlug}/keys/`);
  assert.ok(key);
  Sentry.init({ dsn: key.dsn.public, release: "sdk-node-test@1.0.0", environment: "test" });
});

after(async () => {
  await Sentry.close(5000);
  await server.stop();
});

describe("@sentry/node against Periscope", () => {
  it("stores a cause chain in Sentry's order with in-app frames from this file", async () => {
    const event = await stored(() => Sentry.captureException(new Error("outer failure", { cause: new TypeError("inner cause") })));
    const values = exceptionValues(event);
    assert.deepStrictEqual(
      values.map((value) => ({ type: value.type, value: value.value, mechanism: value.mechanism.type })),
      [
        { type: "TypeError", value: "inner cause", mechanism: "chained" },
        { type: "Error", value: "outer failure", mechanism: "generic" },
      ],
    );
    for (const value of values) {
      const frames = value.stacktrace?.frames ?? [];
      // Caller → callee: the last frame is this file, on the line that built the error.
      const raised = frames.at(-1);
      assert.ok(raised, `${value.type} has frames`);
      assert.deepStrictEqual(
        { file: raised.absPath ?? raised.filename, inApp: raised.inApp },
        { file: import.meta.filename, inApp: true },
      );
      const line = raised.context.find(([lineNo]) => lineNo === raised.lineNo)?.[1] ?? "";
      assert.match(line, /new Error\("outer failure", \{ cause: new TypeError\("inner cause"\) \}\)/);
    }
    const issue = await issueOf(event);
    assert.deepStrictEqual(
      { title: issue.title, level: issue.level, type: issue.type, count: issue.count, status: issue.status, substatus: issue.substatus },
      { title: "Error: outer failure", level: "error", type: "error", count: "1", status: "unresolved", substatus: "new" },
    );
    assert.deepStrictEqual(issue.metadata, {
      type: "Error",
      value: "outer failure",
      filename: (values[1]?.stacktrace?.frames.at(-1)?.filename ?? null) as string,
      function: values[1]?.stacktrace?.frames.at(-1)?.function as string,
    });
  });

  it("stores a captured message as a message issue", async () => {
    const event = await stored(() => Sentry.captureMessage("disk almost full", "warning"));
    const message = event.entries.find((entry) => entry.type === "message");
    assert.deepStrictEqual(message?.data, { formatted: "disk almost full", message: "disk almost full", params: null });
    const issue = await issueOf(event);
    assert.deepStrictEqual(
      { title: issue.title, level: issue.level, type: issue.type, metadata: issue.metadata, count: issue.count },
      { title: "disk almost full", level: "warning", type: "default", metadata: { title: "disk almost full" }, count: "1" },
    );
  });

  it("groups by a custom fingerprint, apart from the default grouping", async () => {
    const withFingerprint = (message: string) =>
      stored(() =>
        Sentry.withScope((scope) => {
          scope.setFingerprint(["payment-provider-down"]);
          return captureThrown(() => failPayment(message));
        }),
      );
    const first = await withFingerprint("provider timeout");
    const second = await withFingerprint("provider refused connection");
    assert.equal(second.groupID, first.groupID);
    assert.equal((await issueOf(first)).count, "2");
    const plain = await stored(() => captureThrown(() => failPayment("provider timeout")));
    assert.notEqual(plain.groupID, first.groupID);
  });

  it("groups errors by code path: same function, other message → one issue; other function → another", async () => {
    const first = await stored(() => captureThrown(() => failWith("user 17 not found")));
    const second = await stored(() => captureThrown(() => failWith("user 42 not found")));
    assert.equal(second.groupID, first.groupID);
    const issue = await issueOf(first);
    assert.equal(issue.count, "2");
    // Each event keeps its own message, newest first.
    const events = await get<Json[]>(`/api/0/issues/${issue.id}/events/`);
    assert.deepStrictEqual(
      events.map((event) => event.title),
      ["Error: user 42 not found", "Error: user 17 not found"],
    );

    const other = await stored(() => captureThrown(failDifferently));
    assert.notEqual(other.groupID, first.groupID);
    assert.equal((await issueOf(other)).count, "1");
  });

  it("reopens a resolved issue as regressed on its next event", async () => {
    const first = await stored(() => captureThrown(failInBackgroundJob));
    const resolved = await server.api(`/api/0/issues/${first.groupID}/`, {
      method: "PUT",
      body: JSON.stringify({ status: "resolved" }),
    });
    assert.deepStrictEqual(
      { status: resolved.status, issueStatus: ((await resolved.json()) as Json).status },
      { status: 200, issueStatus: "resolved" },
    );
    const again = await stored(() => captureThrown(failInBackgroundJob));
    assert.equal(again.groupID, first.groupID);
    const issue = await issueOf(again);
    assert.deepStrictEqual(
      { status: issue.status, substatus: issue.substatus, count: issue.count },
      { status: "unresolved", substatus: "regressed", count: "2" },
    );
  });
});
