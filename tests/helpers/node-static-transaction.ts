/**
 * Runs in a child process (the SDK is a process-wide singleton): @sentry/node with
 * `traceLifecycle: "static"`, which sends a `transaction` event with its child spans — what SDKs
 * before 11, and 11 when so configured, send — instead of streaming v2 spans, SDK 11's default.
 *
 *   node --import tsx tests/helpers/node-static-transaction.ts <dsn>
 *
 * Prints the trace id once everything is flushed.
 */
import * as Sentry from "@sentry/node";

const dsn = process.argv[2];
if (!dsn) throw new Error("usage: node-static-transaction.ts <dsn>");
Sentry.init({ dsn, release: "telemetry-test@1.0.0", environment: "test", tracesSampleRate: 1, traceLifecycle: "static" });
const traceId = await Sentry.startSpan({ name: "nightly report", op: "task" }, async (span) => {
  await Sentry.startSpan({ name: "load orders", op: "db.query" }, () => new Promise((resolve) => setTimeout(resolve, 15)));
  await Sentry.startSpan({ name: "render pdf", op: "function" }, async () => {
    await Sentry.startSpan({ name: "fetch logo", op: "http.client" }, () => new Promise((resolve) => setTimeout(resolve, 5)));
  });
  return span.spanContext().traceId;
});
if (!(await Sentry.close(5000))) throw new Error("the SDK did not flush");
console.log(traceId);
