/**
 * Source-map resolution of JavaScript frames (docs/protocol.md, "Source maps"): the symbolicator the
 * ingest pipeline consults, over whatever implements ArtifactLookup (storage), with map parsing on a
 * thread of its own.
 */
import type { ArtifactLookup } from "../model";
import { SourceMapThread } from "./sourcemap.main";
import { Symbolicator } from "./symbolicator";

export { announceArtifactsChanged } from "./presence";
export { Symbolicator } from "./symbolicator";

export interface RunningSymbolicator {
  symbolicator: Symbolicator;
  close(): Promise<void>;
}

export function startSymbolicator(artifacts: ArtifactLookup, options: { cacheBytes: number; onStopped?(reason: string): void }): RunningSymbolicator {
  const thread = new SourceMapThread({ cacheBytes: options.cacheBytes }, options.onStopped);
  const symbolicator = new Symbolicator(artifacts, thread);
  return {
    symbolicator,
    async close() {
      symbolicator.close();
      await thread.close();
    },
  };
}
