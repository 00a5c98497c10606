import type { Socket } from "node:net";
import { AppError } from "../errors";
import type { DirectAnswer, DirectRequest } from "../http/direct-server";
import type { RequestHead } from "../http/request-head";
import type { Credentials } from "./auth";
import { decodeBody } from "./body";
import type { BufferLease } from "./budget";
import { admitIngest, errorAnswer, ingestAnswer, type IngestDeps, type IngestRequestHead } from "./http";
import { matchIngestRoute, type IngestRoute } from "./route";

/**
 * Which requests the direct reader (src/http/direct-server.ts) answers: POSTs to the envelope and
 * store endpoints, through the same ingestAnswer as node:http's path. The tunnel (the UI's own
 * monitoring, whose connections also carry pages), OPTIONS and every path that is not ingest stay
 * with node:http; so does a path matchIngestRoute refuses, which node:http's path answers with 400.
 *
 * Before the body is read (admit): the request's own credentials and key are checked (admitIngest),
 * then its Content-Length is taken from the buffer budget; a refusal costs no body. The decoded
 * envelope is taken from the same lease, which is given back when the request is over.
 */
export function directIngest(deps: IngestDeps): (head: RequestHead) => DirectRequest | null {
  return (head) => {
    if (head.method !== "POST") return null;
    let route: IngestRoute | null;
    try {
      route = matchIngestRoute(head.target);
    } catch {
      return null;
    }
    if (!route || route.endpoint === "tunnel") return null;
    return new DirectIngestRequest(head, route, deps);
  };
}

class DirectIngestRequest implements DirectRequest {
  private lease: BufferLease | null = null;
  private credentials: Credentials | null = null;
  private ingestHead: IngestRequestHead | null = null;

  constructor(
    private readonly head: RequestHead,
    private readonly route: IngestRoute,
    private readonly deps: IngestDeps,
  ) {}

  admit(socket: Socket): DirectAnswer | null | Promise<DirectAnswer | null> {
    try {
      const admitted = admitIngest(this.requestHead(socket), this.route, this.deps);
      if (admitted instanceof Promise) return admitted.then((credentials) => this.reserve(socket, credentials), refusal);
      return this.reserve(socket, admitted);
    } catch (error) {
      return refusal(error);
    }
  }

  answer(body: Buffer, socket: Socket): Promise<DirectAnswer> {
    const lease = this.lease;
    return ingestAnswer(
      this.requestHead(socket),
      this.route,
      () => decodeBody(body, this.head.headers["content-encoding"], this.deps.config.limits, lease),
      this.deps,
      { credentials: this.credentials },
    );
  }

  finish(): void {
    this.lease?.release();
  }

  /** The body's bytes from the budget before they are read; null: read it. */
  private reserve(socket: Socket, credentials: Credentials | null): DirectAnswer | null {
    this.credentials = credentials;
    this.lease = this.deps.budget.lease(socket.remoteAddress);
    try {
      this.lease.take(this.head.contentLength);
    } catch (error) {
      return refusal(error);
    }
    return null;
  }

  private requestHead(socket: Socket): IngestRequestHead {
    this.ingestHead ??= {
      method: this.head.method,
      url: this.head.target,
      headers: this.head.headers,
      client: { address: socket.remoteAddress, userAgent: this.head.headers["user-agent"] },
    };
    return this.ingestHead;
  }
}

/** admitIngest's and the budget's refusals are AppErrors; anything else would be a fault, answered 503. */
function refusal(error: unknown): DirectAnswer {
  return errorAnswer(error instanceof AppError ? error : new AppError("unavailable", "internal error while ingesting"));
}
