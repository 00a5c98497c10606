import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

const fixtures = path.resolve(import.meta.dirname, "..", "fixtures", "envelopes");

/** The public key the captured envelopes were recorded with. */
export const FIXTURE_KEY = "0123456789abcdef0123456789abcdef";

/**
 * A captured envelope re-addressed to another key (and, when it carries one, another header DSN),
 * with a fresh event id so every send is a new event. Byte-level replace: the captured JSON items
 * carry no `length`, so their framing stays valid.
 */
export function readdressedEnvelope(
  name: string,
  target: { publicKey: string; dsn?: string },
  eventId: string = randomUUID().replace(/-/g, ""),
): { body: Buffer; eventId: string } {
  const raw = readFileSync(path.join(fixtures, `${name}.envelope`), "latin1");
  const header = JSON.parse(raw.slice(0, raw.indexOf("\n"))) as { event_id?: string; dsn?: string };
  let text = raw.split(FIXTURE_KEY).join(target.publicKey);
  if (header.event_id) text = text.split(header.event_id).join(eventId);
  if (header.dsn && target.dsn) text = text.split(header.dsn.split(FIXTURE_KEY).join(target.publicKey)).join(target.dsn);
  return { body: Buffer.from(text, "latin1"), eventId };
}
