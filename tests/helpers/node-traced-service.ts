/**
 * Runs in a child process (the SDK is a process-wide singleton): a small HTTP service on 127.0.0.1
 * instrumented with @sentry/node. `GET /api/orders` continues the caller's trace (sentry-trace and
 * baggage headers), runs a `db.query` span and captures an error inside it, and answers with the
 * trace id. CORS lets a page of another origin call it with the tracing headers.
 *
 *   node --import tsx tests/helpers/node-traced-service.ts <dsn>
 *
 * Prints `listening <port>`; on SIGTERM it flushes the SDK and exits.
 */
import * as Sentry from "@sentry/node";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const dsn = process.argv[2];
if (!dsn) throw new Error("usage: node-traced-service.ts <dsn>");
Sentry.init({
  dsn, release: "orders-api@2.0.0", environment: "test", tracesSampleRate: 1,
  // The request span is made below, the same way whatever the module loader: the automatic one is off.
  integrations: (defaults) => defaults.filter((integration) => !["Http", "NodeFetch", "ProcessSession"].includes(integration.name)),
});

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "sentry-trace, baggage, content-type",
  "access-control-allow-methods": "GET, OPTIONS",
};

const server = createServer((request, response) => {
  if (request.method === "OPTIONS") {
    response.writeHead(204, CORS).end();
    return;
  }
  if (request.url !== "/api/orders") {
    response.writeHead(404, CORS).end();
    return;
  }
  const header = (name: string) => (typeof request.headers[name] === "string" ? (request.headers[name] as string) : undefined);
  void Sentry.continueTrace({ sentryTrace: header("sentry-trace"), baggage: header("baggage") }, () =>
    Sentry.startSpan({ name: "GET /api/orders", op: "http.server", forceTransaction: true }, async (root) => {
      await Sentry.startSpan({ name: "SELECT * FROM orders WHERE id = 42", op: "db.query" }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        Sentry.captureException(new Error("orders table is locked"));
      });
      await Sentry.startSpan({ name: "render orders", op: "function" }, () => new Promise((resolve) => setTimeout(resolve, 5)));
      root.setStatus({ code: 2, message: "internal_error" });
      response.writeHead(500, { ...CORS, "content-type": "application/json" }).end(JSON.stringify({ traceId: root.spanContext().traceId }));
    }),
  );
});
server.listen(0, "127.0.0.1", () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => {
  server.close();
  void Sentry.close(5000).then(() => process.exit(0));
});
