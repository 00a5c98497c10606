/**
 * Captures the benchmark's "medium" error envelope (~20 KB) from the real @sentry/node SDK: an
 * exception after a page's worth of HTTP breadcrumbs, with user and custom context, as a busy
 * server sends them. Written to tests/fixtures/envelopes/bench/.
 *
 *   npx tsx scripts/capture-bench-fixtures.ts
 */
import { writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import * as Sentry from "@sentry/node";
import { scrubCheckoutPath, settle, startRecorder } from "./capture-fixtures";

const PUBLIC_KEY = "0123456789abcdef0123456789abcdef";
const root = path.resolve(import.meta.dirname, "..");
const outDir = path.join(root, "tests", "fixtures", "envelopes", "bench");

function priceLineItems(items: { sku: string; price?: number }[]): number {
  return items.reduce((sum, item) => sum + (item as { price: number }).price.valueOf(), 0);
}

const { server, requests } = startRecorder(new Map(), () => "");
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as AddressInfo;
Sentry.init({ dsn: `http://${PUBLIC_KEY}@127.0.0.1:${port}/1`, release: "shop-api@3.4.1", environment: "production", defaultIntegrations: false,
  integrations: [Sentry.linkedErrorsIntegration(), Sentry.contextLinesIntegration(), Sentry.nodeContextIntegration()] });
for (let i = 0; i < 90; i++) {
  Sentry.addBreadcrumb({
    type: "http",
    category: "http",
    level: "info",
    data: { method: i % 3 === 0 ? "POST" : "GET", url: `https://inventory.internal/v2/orders/${10400 + i}/items?expand=price,stock,warehouse`, status_code: 200, reason: "OK" },
  });
}
Sentry.setUser({ id: "customer-8812", email: "customer-8812@shop.example", ip_address: "203.0.113.7" });
Sentry.setContext("order", { id: 10489, items: 7, currency: "EUR", channel: "web", coupon: null });
Sentry.setTag("checkout.step", "pricing");
try {
  priceLineItems([{ sku: "A-1", price: 10 }, { sku: "B-2" }]);
} catch (error) {
  Sentry.captureException(error);
}
await Sentry.flush(5000);
await settle(requests, 500);
server.close();
const event = requests.find((request) => request.body.includes('"type":"event"'));
if (!event) throw new Error("the SDK sent no event");
writeFileSync(path.join(outDir, "node-medium-error.envelope"), scrubCheckoutPath(event.body));
writeFileSync(
  path.join(outDir, "node-medium-error.json"),
  `${JSON.stringify({ url: event.url, headers: event.headers, sdk: "@sentry/node 11.12.0", note: "TypeError after 90 HTTP breadcrumbs, with user, context and tag (~20 KB)" }, null, 2)}\n`,
);
console.log(`node-medium-error: ${event.body.length} bytes`);
