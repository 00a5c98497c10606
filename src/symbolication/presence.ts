/**
 * Whether a project has any uploaded artifact, cached so that events of projects without source
 * maps skip resolution without a query. A "no" is trusted for a short while only (an upload may
 * follow at any moment); uploads announce themselves (announceArtifactsChanged) to every thread of
 * the process, and other processes see them once the short TTL ran out.
 */
import { BroadcastChannel } from "node:worker_threads";
import { isObject } from "../processing/normalize-values";

const CHANNEL = "periscope:artifacts-changed";
/** How long a "yes" and a "no" are trusted. */
const HAS_TTL_MS = 60_000;
const HAS_NOT_TTL_MS = 10_000;
const MAX_PROJECTS = 10_000;

const local = new Set<ArtifactPresence>();
let announcer: BroadcastChannel | null = null;

/** Call after artifacts of a project were stored or deleted: every cache in this process forgets it. */
export function announceArtifactsChanged(projectId: string): void {
  for (const presence of local) presence.forget(projectId);
  if (!announcer) {
    announcer = new BroadcastChannel(CHANNEL);
    // Nor must the announcer keep the process alive (a CLI or test that announced and is done).
    announcer.unref();
  }
  announcer.postMessage(projectId);
}

export class ArtifactPresence {
  private readonly known = new Map<string, { has: boolean; until: number }>();
  private readonly channel: BroadcastChannel;

  /** `onForget`: what else this process knows about the project's artifacts goes with it. */
  constructor(
    private readonly lookup: (projectId: string) => Promise<boolean>,
    private readonly onForget?: (projectId: string) => void,
  ) {
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.onmessage = (message: unknown) => {
      const projectId = isObject(message) ? message.data : undefined;
      if (typeof projectId === "string") this.forget(projectId);
    };
    // A listener must not keep the process alive.
    this.channel.unref();
    local.add(this);
  }

  /** False only when the project is known to have no artifacts (synchronous, no allocation). */
  mayHave(projectId: string, now: number): boolean {
    const entry = this.known.get(projectId);
    return entry === undefined || entry.until < now || entry.has;
  }

  async has(projectId: string, now: number): Promise<boolean> {
    const entry = this.known.get(projectId);
    if (entry !== undefined && entry.until >= now) return entry.has;
    const has = await this.lookup(projectId);
    if (this.known.size >= MAX_PROJECTS) this.known.clear();
    this.known.set(projectId, { has, until: now + (has ? HAS_TTL_MS : HAS_NOT_TTL_MS) });
    return has;
  }

  forget(projectId: string): void {
    this.known.delete(projectId);
    this.onForget?.(projectId);
  }

  close(): void {
    local.delete(this);
    this.channel.close();
  }
}
