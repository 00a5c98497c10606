import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseEnvelope } from "../../src/ingest/envelope";
import { scrubInviteSecrets, scrubInviteSecretsInEnvelope } from "../../src/monitoring/scrub-secrets";

const SECRET = "0123456789abcdef".repeat(4);
const MASK = "[Filtered]".padEnd(64, "*");

describe("invite secrets in self-monitoring data", () => {
  it("masks every /invite/<64 hex> and nothing else", () => {
    assert.equal(
      scrubInviteSecrets(`https://p.example/invite/${SECRET}?x=1 and /invite/${SECRET}`),
      `https://p.example/invite/${MASK}?x=1 and /invite/${MASK}`,
    );
    const untouched = [`/invite/${SECRET.slice(1)}`, `/invites/${SECRET}`, `/issues/${SECRET}`, `/invite/${SECRET.toUpperCase()}`];
    for (const text of untouched) assert.equal(scrubInviteSecrets(text), text);
  });

  it("keeps an envelope's declared item lengths valid and returns the same buffer when there is nothing to mask", () => {
    const payload = JSON.stringify({ request: { url: `/invite/${SECRET}` }, message: "é" });
    const body = Buffer.from(`{}\n${JSON.stringify({ type: "event", length: Buffer.byteLength(payload) })}\n${payload}`);
    const scrubbed = scrubInviteSecretsInEnvelope(body);
    assert.equal(scrubbed.length, body.length);
    const [item] = parseEnvelope(scrubbed).items;
    assert.deepEqual(JSON.parse(item!.payload.toString("utf8")), { request: { url: `/invite/${MASK}` }, message: "é" });
    const clean = Buffer.from(`{}\n{"type":"event"}\n{"message":"no invite here"}`);
    assert.equal(scrubInviteSecretsInEnvelope(clean), clean);
  });
});
