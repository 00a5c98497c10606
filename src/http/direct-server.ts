/**
 * Reads the requests a handler claims (the SDKs' ingest requests) straight off the socket, ahead of
 * node:http, and answers them itself. node:http costs ≈ 10 µs of CPU per request more than a bare
 * socket reader on this path (docs/performance.md), and the thread that serves HTTP is the one
 * whose every µs costs throughput.
 *
 * Every connection starts here. The first request the handler does not claim, or that
 * request-head.ts does not take as it is, goes to node:http with every byte read so far, and the
 * connection stays with node:http from then on: it answers that request and everything after it
 * exactly as it would have without this reader (errors, upgrades, chunked bodies, Next's pages).
 *
 * What node:http would enforce, this reader enforces on the requests it keeps: the header and
 * request timeouts (408, then the connection is closed), the keep-alive timeout, the head size
 * limit (by handing the request over), and, at shutdown, closing idle connections and closing the
 * others after their answer. The connection cap is the listening server's, applied before either
 * reader sees a socket.
 *
 * What node:http does not enforce, this reader adds for every connection, whichever reader ends up
 * with it (issue 31): a cap on the connections open from one address, so one client cannot take
 * every slot of the server's cap, and, while more than half of that cap is open, a shorter header
 * and idle timeout, so slots held by clients that send nothing useful come free quickly. A request
 * it serves can be refused before its body is read (DirectRequest.admit): then the body is never
 * held in memory.
 */
import { STATUS_CODES, type Server } from "node:http";
import type { Socket } from "node:net";
import { addressKey } from "./client-address";
import { parseRequestHead, type RequestHead } from "./request-head";

export interface DirectAnswer {
  status: number;
  headers: Record<string, string | number>;
  body: string;
}

/** One request this reader serves, from its head on. */
export interface DirectRequest {
  /**
   * Once the head is read, before the body: null reads the body; an answer refuses the request
   * without reading its body, and the connection is closed after it unless the body was already
   * read. Must not reject.
   */
  admit?(socket: Socket): DirectAnswer | null | Promise<DirectAnswer | null>;
  /** Answers the request whose whole body was read. Must not reject. */
  answer(body: Buffer, socket: Socket): Promise<DirectAnswer>;
  /** Called once when the request is over: answered, refused, or its connection gone (after answer() settled). */
  finish?(): void;
}

export interface DirectServerOptions {
  /** The request this reader serves, or null: the connection goes to node:http. */
  handlerFor(head: RequestHead): DirectRequest | null;
  /** A longer body goes to node:http, which refuses it as it always has. */
  maxBodyBytes: number;
  headersTimeoutMs: number;
  /** How long a request may take to arrive, and an answer waiting in memory to be taken; past it the connection is closed. */
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** Connections open from one address (IPv6: one /64) above this are closed at once; 0: no cap. */
  maxConnectionsPerAddress?: number;
  /** While more than half of the server's maxConnections are open: the header and idle timeout. */
  headersTimeoutUnderPressureMs?: number;
}

/** node:http's default limit on a request head; a longer one is handed over for node:http's 431. */
const MAX_HEAD_BYTES = 16 * 1024;
/** Bytes of a next request read while one is being answered, before reading pauses until the answer is out. */
const MAX_READ_AHEAD = 64 * 1024;
const HEAD_END = Buffer.from("\r\n\r\n");
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** As node:http answers a request that timed out or stopped in the middle. */
const REQUEST_TIMEOUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n";
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";
/** Of a body refused before it was read, how much is read and dropped (so the client can read the answer) before the connection is cut. */
const DRAIN_BYTES = 1024 * 1024;
const INTERNAL_ERROR: DirectAnswer = { status: 500, headers: { "Content-Length": 0 }, body: "" };

type ConnectionListener = (this: Server, socket: Socket) => void;

export class DirectServer {
  closing = false;
  /** Requests answered here, and connections handed to node:http: for tests and the benchmark. */
  readonly counts = { answered: 0, handedOver: 0 };
  /** Connections closed at once for their address's cap (maxConnectionsPerAddress). */
  refusedConnections = 0;
  private readonly connections = new Set<DirectConnection>();
  private readonly nodeListeners: ConnectionListener[];
  /** Open sockets by addressKey, whichever reader has them. */
  private readonly openByAddress = new Map<string, number>();
  private open = 0;
  /** The header and idle timeout in force: shorter while the server is under pressure (expire). */
  private headersTimeoutMs: number;
  private keepAliveTimeoutMs: number;

  constructor(
    private readonly server: Server,
    readonly options: DirectServerOptions,
  ) {
    // node:http's own connection listener runs only for the connections handed over.
    this.nodeListeners = server.listeners("connection") as ConnectionListener[];
    server.removeAllListeners("connection");
    server.on("connection", (socket: Socket) => {
      if (this.admitConnection(socket)) this.connections.add(new DirectConnection(socket, this));
    });
    this.headersTimeoutMs = options.headersTimeoutMs;
    this.keepAliveTimeoutMs = options.keepAliveTimeoutMs;
    const shortest = Math.min(options.headersTimeoutMs, options.requestTimeoutMs, options.keepAliveTimeoutMs, options.headersTimeoutUnderPressureMs ?? Infinity);
    const sweepMs = Math.max(250, shortest / 4);
    const sweep = setInterval(() => this.expire(), sweepMs).unref();
    server.once("close", () => clearInterval(sweep));
  }

  /** At shutdown: idle connections close now, the others once their request is answered. */
  closeIdleConnections(): void {
    this.closing = true;
    for (const connection of this.connections) connection.closeIfIdle();
  }

  /** Destroys every connection still read here, mid-request or not (node:http's closeAllConnections does not see them). */
  closeAllConnections(): void {
    this.closing = true;
    for (const connection of this.connections) connection.destroy();
  }

  handOver(connection: DirectConnection, socket: Socket, buffered: Buffer[]): void {
    this.connections.delete(connection);
    this.counts.handedOver++;
    for (const listener of this.nodeListeners) listener.call(this.server, socket);
    // node:http reads the bytes already read first: resume() emits them before the next read arrives.
    for (let index = buffered.length - 1; index >= 0; index--) socket.unshift(buffered[index]!);
    socket.resume();
  }

  forget(connection: DirectConnection): void {
    this.connections.delete(connection);
  }

  /** Counts the socket under its address until it closes; false (and the socket destroyed) past the address's cap. */
  private admitConnection(socket: Socket): boolean {
    const key = addressKey(socket.remoteAddress);
    const count = this.openByAddress.get(key) ?? 0;
    const cap = this.options.maxConnectionsPerAddress ?? 0;
    if (cap > 0 && count >= cap) {
      this.refusedConnections++;
      socket.destroy();
      return false;
    }
    this.openByAddress.set(key, count + 1);
    this.open++;
    socket.once("close", () => {
      this.open--;
      const left = (this.openByAddress.get(key) ?? 1) - 1;
      if (left > 0) this.openByAddress.set(key, left);
      else this.openByAddress.delete(key);
    });
    return true;
  }

  /** Whether more than half of the server's connection cap is open. */
  get underPressure(): boolean {
    return Number.isFinite(this.server.maxConnections) && this.open > this.server.maxConnections / 2;
  }

  timeouts(): { headersTimeoutMs: number; keepAliveTimeoutMs: number } {
    return { headersTimeoutMs: this.headersTimeoutMs, keepAliveTimeoutMs: this.keepAliveTimeoutMs };
  }

  private expire(): void {
    const pressureMs = this.options.headersTimeoutUnderPressureMs;
    if (pressureMs !== undefined) {
      const pressure = this.underPressure;
      this.headersTimeoutMs = pressure ? Math.min(pressureMs, this.options.headersTimeoutMs) : this.options.headersTimeoutMs;
      this.keepAliveTimeoutMs = pressure ? Math.min(pressureMs, this.options.keepAliveTimeoutMs) : this.options.keepAliveTimeoutMs;
      // node:http reads its header timeout at each of its own checks: the connections handed to it get the same.
      this.server.headersTimeout = this.headersTimeoutMs;
    }
    const now = Date.now();
    for (const connection of this.connections) connection.expire(now);
  }
}

/**
 * "admitting": the request's admit() is deciding (reading paused). "writing": an answer waits in
 * memory for a client that does not read; nothing more is read until it has gone out, and a client
 * that has not taken it within requestTimeoutMs is cut off. "draining": a request was refused
 * before its body was read; what arrives of it is dropped, up to DRAIN_BYTES, until the connection closes.
 */
type Phase = "idle" | "head" | "admitting" | "body" | "answering" | "writing" | "draining" | "closed";

class DirectConnection {
  private chunks: Buffer[] = [];
  private size = 0;
  private phase: Phase = "idle";
  /** When the request being read started, since when the connection is idle, or since when an answer waits to be taken. */
  private since = Date.now();
  private head: RequestHead | null = null;
  private request: DirectRequest | null = null;
  /** True while the request's answer() runs: its finish() waits for it, since it still holds the body. */
  private inHandler = false;
  private headBytes = 0;
  private clientEnded = false;
  private drained = 0;

  constructor(
    private readonly socket: Socket,
    private readonly direct: DirectServer,
  ) {
    socket.on("data", this.onData);
    socket.on("end", this.onEnd);
    socket.on("error", this.onError);
    socket.on("close", this.onClose);
  }

  closeIfIdle(): void {
    if (this.phase === "idle" && this.size === 0) this.socket.destroy();
  }

  destroy(): void {
    this.phase = "closed";
    this.socket.destroy();
  }

  expire(now: number): void {
    const { requestTimeoutMs } = this.direct.options;
    const { headersTimeoutMs, keepAliveTimeoutMs } = this.direct.timeouts();
    if (this.phase === "idle" && now - this.since > keepAliveTimeoutMs) {
      this.socket.destroy();
    } else if ((this.phase === "head" && now - this.since > headersTimeoutMs) || (this.phase === "body" && now - this.since > requestTimeoutMs)) {
      this.phase = "closed";
      this.socket.write(REQUEST_TIMEOUT);
      this.socket.destroy();
    } else if ((this.phase === "writing" || this.phase === "draining" || this.phase === "admitting") && now - this.since > requestTimeoutMs) {
      // node:http has no such limit; without it a client that never reads would hold its connection,
      // and the answers queued for it, for as long as it stays connected.
      this.destroy();
    }
  }

  private readonly onData = (chunk: Buffer) => {
    if (this.phase === "closed") return;
    if (this.phase === "draining") {
      this.drained += chunk.length;
      if (this.drained > DRAIN_BYTES) this.destroy();
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.phase === "answering" || this.phase === "writing") {
      if (this.size > MAX_READ_AHEAD) this.socket.pause();
      return;
    }
    this.advance();
  };

  private readonly onEnd = () => {
    this.clientEnded = true;
    // Answered first, then closed (respond).
    if (this.phase === "answering" || this.phase === "closed") return;
    if (this.phase === "draining" || this.phase === "admitting") {
      this.destroy();
      return;
    }
    if (this.phase === "writing") {
      this.phase = "closed";
      this.socket.end();
      return;
    }
    this.phase = "closed";
    // A request the client stopped sending in the middle gets node:http's answer to that.
    if (this.size === 0) this.socket.end();
    else this.socket.end(BAD_REQUEST);
  };

  private readonly onError = () => {
    this.socket.destroy();
  };

  private readonly onClose = () => {
    this.phase = "closed";
    this.direct.forget(this);
    if (!this.inHandler) this.finishRequest();
  };

  /** The request is over: its finish(), once. */
  private finishRequest(): void {
    const request = this.request;
    this.request = null;
    request?.finish?.();
  }

  private advance(): void {
    if (this.phase === "idle") {
      if (this.size === 0) return;
      this.phase = "head";
      this.since = Date.now();
    }
    if (this.phase === "head" && !this.readHead()) return;
    if (this.phase === "body" && this.size >= this.headBytes + this.head!.contentLength) this.answer();
  }

  /** True once a head this reader serves is read; a head it does not serve is handed over. */
  private readHead(): boolean {
    const data = this.joined();
    const end = data.indexOf(HEAD_END);
    if (end < 0) {
      // Longer than node:http allows, or lines ending in a bare LF, which request-head.ts does not take.
      if (data.length > MAX_HEAD_BYTES || hasBareLineFeed(data)) this.handOver();
      return false;
    }
    const head = end <= MAX_HEAD_BYTES ? parseRequestHead(data.toString("latin1", 0, end)) : null;
    const request = head && head.contentLength <= this.direct.options.maxBodyBytes ? this.direct.options.handlerFor(head) : null;
    if (!head || !request) {
      this.handOver();
      return false;
    }
    this.head = head;
    this.request = request;
    this.headBytes = end + HEAD_END.length;
    const admitted = request.admit ? request.admit(this.socket) : null;
    if (admitted === null) {
      this.phase = "body";
      return true;
    }
    if (admitted instanceof Promise) {
      // Nothing more is read while admit() decides: a refused body must not pile up meanwhile.
      this.phase = "admitting";
      this.socket.pause();
      admitted.then(
        (answer) => this.admitted(answer),
        () => this.admitted(INTERNAL_ERROR),
      );
      return false;
    }
    this.refuse(admitted);
    return false;
  }

  private admitted(answer: DirectAnswer | null): void {
    if (this.phase !== "admitting") return;
    if (answer) {
      this.refuse(answer);
      return;
    }
    this.phase = "body";
    this.socket.resume();
    this.advance();
  }

  /**
   * Answers a request admit() refused. With its whole body already read, the connection goes on as
   * after any answer; otherwise it is answered with `Connection: close`, and what arrives of the body
   * is dropped until the client closes (or DRAIN_BYTES, or requestTimeoutMs, pass).
   */
  private refuse(answer: DirectAnswer): void {
    const head = this.head!;
    const bodyEnd = this.headBytes + head.contentLength;
    if (this.size >= bodyEnd) {
      const data = this.joined();
      this.chunks = bodyEnd < data.length ? [data.subarray(bodyEnd)] : [];
      this.size = data.length - bodyEnd;
      this.finishRequest();
      this.respond(head, answer);
      return;
    }
    this.finishRequest();
    this.direct.counts.answered++;
    this.chunks = [];
    this.size = 0;
    this.head = null;
    this.phase = "draining";
    this.since = Date.now();
    this.drained = 0;
    this.socket.end(responseText(answer, false, 0));
    if (this.socket.isPaused()) this.socket.resume();
  }

  private answer(): void {
    const head = this.head!;
    const data = this.joined();
    const end = this.headBytes + head.contentLength;
    const body = data.subarray(this.headBytes, end);
    this.chunks = end < data.length ? [data.subarray(end)] : [];
    this.size = data.length - end;
    this.phase = "answering";
    this.inHandler = true;
    const settled = (answer: DirectAnswer) => {
      this.inHandler = false;
      this.finishRequest();
      this.respond(head, answer);
    };
    this.request!.answer(body, this.socket).then(settled, () => settled(INTERNAL_ERROR));
  }

  private respond(head: RequestHead, answer: DirectAnswer): void {
    if (this.phase === "closed") return;
    this.direct.counts.answered++;
    const keepAlive = head.keepAlive && !this.clientEnded && !this.direct.closing;
    const written = this.socket.write(responseText(answer, keepAlive, this.direct.options.keepAliveTimeoutMs));
    this.head = null;
    if (!keepAlive) {
      this.phase = "closed";
      this.socket.end();
      return;
    }
    if (!written) {
      // A client that sends without reading its answers must not fill our memory with them (node:http pauses too).
      this.phase = "writing";
      this.since = Date.now();
      this.socket.once("drain", this.onDrain);
      return;
    }
    this.next();
  }

  private readonly onDrain = () => {
    if (this.phase === "writing") this.next();
  };

  /** Ready for the next request on this connection. */
  private next(): void {
    this.phase = "idle";
    this.since = Date.now();
    if (this.direct.closing && this.size === 0) {
      this.socket.destroy();
      return;
    }
    if (this.socket.isPaused()) this.socket.resume();
    this.advance();
  }

  private handOver(): void {
    const { socket } = this;
    socket.off("data", this.onData);
    socket.off("end", this.onEnd);
    socket.off("error", this.onError);
    socket.off("close", this.onClose);
    socket.off("drain", this.onDrain);
    socket.pause();
    this.phase = "closed";
    const buffered = this.chunks;
    this.chunks = [];
    this.size = 0;
    this.direct.handOver(this, socket, buffered);
  }

  /** The bytes read and not yet used, as one Buffer. */
  private joined(): Buffer {
    if (this.chunks.length > 1) this.chunks = [Buffer.concat(this.chunks, this.size)];
    return this.chunks[0] ?? Buffer.alloc(0);
  }
}

function hasBareLineFeed(data: Buffer): boolean {
  for (let index = data.indexOf(LINE_FEED); index >= 0; index = data.indexOf(LINE_FEED, index + 1)) {
    if (index === 0 || data[index - 1] !== CARRIAGE_RETURN) return true;
  }
  return false;
}

let dateSecond = -1;
let dateLine = "";

/** node:http sends a Date header on every answer; formatted once a second, as node:http does. */
function dateHeader(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateLine = `Date: ${new Date(second * 1000).toUTCString()}\r\n`;
  }
  return dateLine;
}

/** The status line, the answer's headers, Date and Connection as node:http writes them, then the body. */
function responseText(answer: DirectAnswer, keepAlive: boolean, keepAliveTimeoutMs: number): string {
  let text = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}\r\n`;
  for (const name in answer.headers) text += `${name}: ${answer.headers[name]}\r\n`;
  text += dateHeader();
  text += keepAlive ? `Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(keepAliveTimeoutMs / 1000)}\r\n\r\n` : "Connection: close\r\n\r\n";
  return text + answer.body;
}
