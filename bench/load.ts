import { randomBytes } from "node:crypto";
import http from "node:http";

export interface LoadResult {
  sent: number;
  accepted: number;
  rejected: Record<string, number>;
  seconds: number;
  latenciesMs: number[];
  acceptedIds: string[];
}

/** An envelope template with every occurrence of its event id replaced per request. */
export interface Template {
  parts: Buffer[];
}

export function makeTemplate(envelope: Buffer): Template {
  const header = JSON.parse(envelope.subarray(0, envelope.indexOf(0x0a)).toString("utf8")) as { event_id?: string };
  if (!header.event_id) return { parts: [envelope] };
  const text = envelope.toString("latin1");
  return { parts: text.split(header.event_id).map((part) => Buffer.from(part, "latin1")) };
}

function render(template: Template): { body: Buffer; eventId: string } {
  const eventId = randomBytes(16).toString("hex");
  const id = Buffer.from(eventId, "latin1");
  const chunks: Buffer[] = [];
  template.parts.forEach((part, index) => {
    if (index > 0) chunks.push(id);
    chunks.push(part);
  });
  return { body: Buffer.concat(chunks), eventId };
}

/** Keeps `connections` requests in flight for `seconds`, cycling through the templates. */
export async function runLoad(options: {
  url: string;
  templates: Template[];
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const result: LoadResult = { sent: 0, accepted: 0, rejected: {}, seconds: options.seconds, latenciesMs: [], acceptedIds: [] };
  const deadline = Date.now() + options.seconds * 1000;
  let next = 0;

  const post = (body: Buffer) =>
    new Promise<number>((resolve) => {
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, method: "POST", agent,
          headers: { "Content-Type": "application/x-sentry-envelope", "Content-Length": body.length } },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", () => resolve(0));
      req.end(body);
    });

  const worker = async () => {
    while (Date.now() < deadline) {
      const template = options.templates[next++ % options.templates.length]!;
      const { body, eventId } = render(template);
      const started = performance.now();
      const status = await post(body);
      result.latenciesMs.push(performance.now() - started);
      result.sent++;
      if (status === 200) {
        result.accepted++;
        result.acceptedIds.push(eventId);
      } else {
        result.rejected[String(status)] = (result.rejected[String(status)] ?? 0) + 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.connections }, worker));
  result.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return result;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
