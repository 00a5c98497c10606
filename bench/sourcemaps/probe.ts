/**
 * The cold-map probe: plain events paced well below capacity, and, a moment in, one event whose
 * frames need a source map the server has not parsed yet (fetched from storage and parsed on the
 * source-map thread). The plain events in flight while that event waits are the ones a stalled
 * ingest door would hold up; their latency is set against the plain events' outside that window.
 */
import { randomBytes } from "node:crypto";
import { Connection, percentile, runLoad, type Template } from "../load";

export interface Sample {
  /** performance.now() when the request was due. */
  at: number;
  latencyMs: number;
}

/**
 * The latencies of the samples in flight at any moment of [from, to] (due before `to` and answered
 * after `from`), and of the rest.
 */
export function splitByWindow(samples: Sample[], from: number, to: number): { during: number[]; outside: number[]; answeredInside: number } {
  if (!(to >= from)) throw new Error(`splitByWindow: the window ends (${to}) before it starts (${from})`);
  const during: number[] = [];
  const outside: number[] = [];
  // Answers that arrived inside the window: none if the door stood still while the map was parsed.
  let answeredInside = 0;
  for (const sample of samples) {
    const answered = sample.at + sample.latencyMs;
    (sample.at <= to && answered >= from ? during : outside).push(sample.latencyMs);
    if (answered >= from && answered <= to) answeredInside++;
  }
  return { during, outside, answeredInside };
}

export interface ProbeResult {
  /** The map-needing event: its answer's status and how long it took (fetch + parse + resolution + commit). */
  status: number;
  ackMs: number;
  eventId: string;
  during: number[];
  outside: number[];
  /** Plain events acknowledged while the map-needing event waited. */
  answeredInside: number;
  /** Event ids of every acknowledged event, the probe event included when it was. */
  acceptedIds: string[];
  plainPerSecond: number;
}

/** One request of `template` with a fresh event id, as runLoad sends it. */
function request(url: URL, template: Template): { chunks: Buffer[]; eventId: string } {
  const eventId = randomBytes(16).toString("hex");
  const body = Buffer.concat(template.parts.flatMap((part, index) => (index === 0 ? [part] : [Buffer.from(eventId, "latin1"), part])));
  const head = Buffer.from(
    `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/x-sentry-envelope\r\nContent-Length: ${body.length}\r\n\r\n`,
    "latin1",
  );
  return { chunks: [head, body], eventId };
}

export async function coldMapProbe(options: { url: string; plain: Template[]; coldEvent: Template; rate: number; connections: number; seconds: number; sendAfterMs: number }): Promise<ProbeResult> {
  const samples: Sample[] = [];
  let window: { from: number; to: number } | null = null;
  let cold: { status: number; eventId: string } | null = null;
  const target = new URL(options.url);
  const probe = new Connection(target.hostname, Number(target.port || 80));
  const timer = new Promise<void>((resolve) =>
    setTimeout(() => {
      const { chunks, eventId } = request(target, options.coldEvent);
      const from = performance.now();
      void probe.send(chunks).then((status) => {
        window = { from, to: performance.now() };
        cold = { status, eventId };
        resolve();
      });
    }, options.sendAfterMs),
  );
  const load = await runLoad({
    url: options.url,
    templates: options.plain,
    connections: options.connections,
    seconds: options.seconds,
    rate: options.rate,
    onAnswer: (at, latencyMs) => samples.push({ at, latencyMs }),
  });
  await timer;
  probe.close();
  const { from, to } = window!;
  const { status, eventId } = cold!;
  return {
    status,
    ackMs: to - from,
    eventId,
    ...splitByWindow(samples, from, to),
    acceptedIds: status === 200 ? [...load.acceptedIds, eventId] : load.acceptedIds,
    plainPerSecond: load.accepted / load.seconds,
  };
}

/** One probe, as the bench prints it. */
export function probeLine(probe: ProbeResult, rate: number): string {
  const text = (values: number[]) =>
    values.length === 0 ? "none" : `p50 ${percentile(values, 50).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
  return (
    `the first event needing this map was acknowledged (${probe.status}) in ${probe.ackMs.toFixed(0)} ms (fetch, parse, resolve, commit); ` +
    `plain events at ${rate}/s in flight meanwhile: ${probe.during.length}, ${text(probe.during)}, ${probe.answeredInside} acknowledged inside the window ` +
    `(${Math.round((probe.answeredInside * 1000) / Math.max(1, probe.ackMs))}/s); the probe's other plain events: ${text(probe.outside)}`
  );
}
