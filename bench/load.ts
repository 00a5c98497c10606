/**
 * The load generator: raw HTTP/1.1 over keep-alive sockets with pre-rendered requests, because the
 * generator shares the 2-core machine with the server and node's http client spends most of a core
 * on itself. Closed loop by default (each connection sends its next request when the last answer
 * arrives); with `rate`, requests are started on a fixed schedule and latency is measured from the
 * scheduled time, so a slow server cannot hide its queueing (no coordinated omission).
 */
import { randomBytes } from "node:crypto";
import net from "node:net";

export interface LoadResult {
  sent: number;
  accepted: number;
  rejected: Record<string, number>;
  seconds: number;
  latenciesMs: number[];
  acceptedIds: string[];
  /** Accepted answers per SLICE_SECONDS of the run, in order (ratesBySlice turns them into rates). */
  acceptedPerSlice: number[];
  /** Latencies of the requests of labelled templates, by label (a mix's kinds told apart). */
  latenciesByLabel: Map<string, number[]>;
}

/**
 * Seconds per slice of a run's throughput over time. A server whose database grows by tens of MB a
 * second answers more slowly late in a 60 s run than early (docs/performance.md), which one figure
 * for the whole run hides.
 */
export const SLICE_SECONDS = 10;

/** The slice of a run of `slices` slices that an answer `elapsedMs` after the start counts in; answers after the deadline count in the last. */
export function sliceOf(elapsedMs: number, slices: number): number {
  return Math.min(slices - 1, Math.floor(elapsedMs / (SLICE_SECONDS * 1000)));
}

/** Per slice, answers per second; the last slice counts over the rest of the run's `seconds`, its answers after the deadline included. */
export function ratesBySlice(counts: number[], seconds: number): number[] {
  return counts.map((count, index) => count / (index === counts.length - 1 ? seconds - index * SLICE_SECONDS : SLICE_SECONDS));
}

/**
 * An envelope template with every occurrence of its event id replaced per request — or, for an
 * envelope without one (span containers), of its trace id, so spans are new spans each time as
 * from a real SDK, not resends the server deduplicates.
 */
export interface Template {
  parts: Buffer[];
  /** Items of this envelope that count as events (0 for sessions, spans, reports). */
  events?: number;
  /** The kind of request this is in a mix, for latencies by kind (LoadResult.latenciesByLabel). */
  label?: string;
}

export function makeTemplate(envelope: Buffer): Template {
  const header = JSON.parse(envelope.subarray(0, envelope.indexOf(0x0a)).toString("utf8")) as {
    event_id?: string;
    trace?: { trace_id?: string };
  };
  const id = header.event_id ?? header.trace?.trace_id;
  if (!id) return { parts: [envelope], events: 0 };
  const text = envelope.toString("latin1");
  return { parts: text.split(id).map((part) => Buffer.from(part, "latin1")), events: header.event_id ? 1 : 0 };
}

/** A fresh id per request, in hex characters: what event and trace ids are. */
const ID_LENGTH = 32;
/** Ids made per random draw. */
const IDS_PER_DRAW = 1024;

/**
 * Fresh random ids as bytes, drawn from the system's generator in bulk: one `randomBytes` call per
 * request was 16 % of this process's busy time, CPU the server it measures shares. Each draw goes to
 * a new buffer, so an id handed out stays valid while the socket writes it.
 */
export class IdSource {
  private hex = Buffer.alloc(0);
  private next = IDS_PER_DRAW;

  take(): Buffer {
    if (this.next === IDS_PER_DRAW) {
      this.hex = Buffer.from(randomBytes((IDS_PER_DRAW * ID_LENGTH) / 2).toString("hex"), "latin1");
      this.next = 0;
    }
    const start = this.next++ * ID_LENGTH;
    return this.hex.subarray(start, start + ID_LENGTH);
  }
}

/**
 * The chunks of one request: the head, then the template's parts with a fresh id between them. Sent
 * as they are (Connection.send), not concatenated: at ≈ 8 KB per request a copy per request kept V8
 * marking and sweeping on this process's threads, which share the two cores with the server.
 */
function render(template: Template, head: Buffer, ids: IdSource): { chunks: Buffer[]; eventId: string | null } {
  if (template.parts.length === 1) return { chunks: [head, template.parts[0]!], eventId: null };
  const id = ids.take();
  const chunks: Buffer[] = [head];
  for (let index = 0; index < template.parts.length; index++) {
    if (index > 0) chunks.push(id);
    chunks.push(template.parts[index]!);
  }
  return { chunks, eventId: template.events === 0 ? null : id.toString("latin1") };
}

/** Bytes of a rendered request body: every id is ID_LENGTH hex characters. */
const bodyLength = (template: Template) =>
  template.parts.reduce((sum, part) => sum + part.length, 0) + (template.parts.length - 1) * ID_LENGTH;

/** One keep-alive connection that sends a request and resolves with the status of its answer. */
export class Connection {
  private socket: net.Socket | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private waiting: ((status: number) => void) | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** The chunks go out in one writev (cork), without being copied into one buffer first. */
  send(chunks: Buffer[]): Promise<number> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      const socket = this.connected();
      socket.cork();
      for (const chunk of chunks) socket.write(chunk);
      socket.uncork();
    });
  }

  close(): void {
    this.socket?.destroy();
  }

  private connected(): net.Socket {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const socket = net.connect(this.port, this.host);
    socket.setNoDelay(true);
    this.buffer = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    const fail = () => {
      this.socket = null;
      this.finish(0);
    };
    socket.on("error", fail);
    socket.on("close", fail);
    this.socket = socket;
    return socket;
  }

  private parse(): void {
    const headerEnd = this.buffer.indexOf("\r\n\r\n");
    if (headerEnd === -1) return;
    const head = this.buffer.subarray(0, headerEnd).toString("latin1");
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffer.length < headerEnd + 4 + length) return;
    this.buffer = this.buffer.subarray(headerEnd + 4 + length);
    this.finish(Number(head.slice(9, 12)));
  }

  private finish(status: number): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.(status);
  }
}

/**
 * Keep-alive connections to the server at `url`, to hand to several runs: a measured run that goes
 * on over the warm-up's connections measures the server in its steady state, not the moment its
 * clients all connect at once (which a real fleet of SDKs, each keeping its connection, does not
 * do). Connected at their first request; the caller closes them.
 */
export function openConnections(url: string, count: number): Connection[] {
  const target = new URL(url);
  return Array.from({ length: count }, () => new Connection(target.hostname, Number(target.port || 80)));
}

/**
 * Keeps `connections` requests in flight for `seconds` (or paces them at `rate`/s), cycling
 * templates. With `over`, it sends over those connections (one per in-flight request) and leaves
 * them open; otherwise it opens its own and closes them at the end.
 */
export async function runLoad(options: {
  url: string;
  templates: Template[];
  connections: number;
  seconds: number;
  rate?: number;
  over?: Connection[];
  /** Called with each answer: when the request was scheduled (performance.now()), its latency, status and event id. */
  onAnswer?: (scheduledAt: number, latencyMs: number, template: Template, status: number, eventId: string | null) => void;
}): Promise<LoadResult> {
  if (options.over && options.over.length !== options.connections) {
    throw new Error(`runLoad: ${options.connections} connections asked for, ${options.over.length} given`);
  }
  const target = new URL(options.url);
  const headOf = (length: number) =>
    Buffer.from(
      `POST ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n` +
        `Content-Type: application/x-sentry-envelope\r\nContent-Length: ${length}\r\n\r\n`,
      "latin1",
    );
  // One head per template, made once: a template's body length never changes.
  const heads = new Map(options.templates.map((template) => [template, headOf(bodyLength(template))]));
  const slices = Math.max(1, Math.ceil(options.seconds / SLICE_SECONDS));
  const acceptedPerSlice = new Array<number>(slices).fill(0);
  const result: LoadResult = { sent: 0, accepted: 0, rejected: {}, seconds: options.seconds, latenciesMs: [], acceptedIds: [], acceptedPerSlice, latenciesByLabel: new Map() };
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  let next = 0;

  const pool = options.over ?? openConnections(options.url, options.connections);
  const ids = new IdSource();
  const worker = async (connection: Connection) => {
    while (performance.now() < deadline) {
      const index = next++;
      const scheduled = options.rate ? started + (index * 1000) / options.rate : performance.now();
      if (scheduled >= deadline) break;
      const wait = scheduled - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const template = options.templates[index % options.templates.length]!;
      const { chunks, eventId } = render(template, heads.get(template)!, ids);
      const status = await connection.send(chunks);
      const answeredAt = performance.now();
      result.latenciesMs.push(answeredAt - scheduled);
      if (template.label !== undefined) {
        const byLabel = result.latenciesByLabel.get(template.label);
        if (byLabel) byLabel.push(answeredAt - scheduled);
        else result.latenciesByLabel.set(template.label, [answeredAt - scheduled]);
      }
      options.onAnswer?.(scheduled, answeredAt - scheduled, template, status, eventId);
      result.sent++;
      if (status === 200) {
        result.accepted++;
        acceptedPerSlice[sliceOf(answeredAt - started, slices)]!++;
        if (eventId) result.acceptedIds.push(eventId);
      } else {
        result.rejected[String(status)] = (result.rejected[String(status)] ?? 0) + 1;
      }
    }
    if (!options.over) connection.close();
  };
  await Promise.all(pool.map(worker));
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/**
 * Above this share of `--rate`, a paced run may have measured the pace, not the server: the load
 * generator never offers more than the rate (the realistic mix at 7,000/s can show at most 4,900
 * error events/s, and a fast machine reached 6,959 of the 7,000; docs/performance.md).
 */
const PACE_BOUND_SHARE = 0.97;

/** Why a paced run's throughput may be the pace's, or null when the server stayed clearly below it. */
export function paceWarning(sentPerSecond: number, rate: number | undefined): string | null {
  if (rate === undefined || sentPerSecond < rate * PACE_BOUND_SHARE) return null;
  return `sent ${Math.round(sentPerSecond)} requests/s of the ${rate}/s offered (--rate): the pace may have set this figure, not the server; raise --rate to measure capacity`;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The middle value, or the mean of the two middle ones for an even count. */
export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
