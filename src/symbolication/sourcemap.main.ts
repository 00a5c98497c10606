/**
 * The main thread's handle on the source-map thread (sourcemap.thread.ts), over the shared
 * ThreadClient. Started on first use, so a server whose projects never upload maps runs no extra
 * thread; idle, it does not keep the process alive. A thread that stops fails its open lookups (those
 * frames stay unresolved and say so) and the next lookup starts a new one.
 */
import { ThreadClient } from "../threads/thread-client";
import type { LookupAnswer, MapContent, MapLookup, ResolveRequest, SourceMapThreadData } from "./sourcemap.protocol";

/** Looks positions up in parsed maps; "missing" asks for the map's bytes (symbolicator.ts). */
export interface MapResolver {
  resolve(lookups: MapLookup[], contents: MapContent[]): Promise<LookupAnswer[]>;
  close(): Promise<void>;
}

export class SourceMapThread implements MapResolver {
  private readonly client: ThreadClient<ResolveRequest, LookupAnswer[]>;

  constructor(data: SourceMapThreadData, onStopped?: (reason: string) => void) {
    this.client = new ThreadClient({
      entry: new URL("./sourcemap.thread", import.meta.url),
      name: "the source-map thread",
      workerData: data,
      restartDelayMs: 0,
      onStopped,
      unrefWhenIdle: true,
    });
  }

  resolve(lookups: MapLookup[], contents: MapContent[]): Promise<LookupAnswer[]> {
    // The bytes are copies made for this message (symbolicator.ts): transferred, not copied again.
    return this.client.request({ lookups, contents }, contents.map((content) => content.bytes.buffer as ArrayBuffer));
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
