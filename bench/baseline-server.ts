/**
 * The limit the ingest door is measured against: a bare node:http server that reads each body in
 * full, discards it and answers 200 — no parsing, no storage. Started as its own process by the bench.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const server = createServer((req, res) => {
  req.on("data", () => undefined);
  req.on("end", () => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "2" }).end("{}");
  });
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening on ${(server.address() as AddressInfo).port}`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
