/**
 * Where each frame file's map was found, per project, for a short while: without it every event of
 * a project with uploads queried storage for every file of its stack (one to three queries a file),
 * on the ingest thread, even when nothing matched; the bench (`npm run bench -- --mix sourcemaps`)
 * measured that as the largest cost of resolution. Lookups in progress are shared, so a burst of
 * events after a deploy asks once. A hit is trusted for as long as ArtifactPresence trusts a "yes",
 * a miss for as long as it trusts a "no"; uploads and deletions forget the project at once
 * (presence.ts announces them) and a failed lookup is not kept.
 */
import type { LocatedMap } from "./locate";

const HIT_TTL_MS = 60_000;
const MISS_TTL_MS = 10_000;
/** Entries over all projects; past it the cache starts again empty (one query per file to refill). */
const MAX_ENTRIES = 10_000;

interface Entry {
  located: Promise<LocatedMap>;
  /** Infinity while the lookup runs. */
  until: number;
}

export class LocatedCache {
  private readonly byProject = new Map<string, Map<string, Entry>>();
  private entries = 0;

  /** The known answer for `key` of the project, else `locate()`'s, kept for the next events. */
  remember(projectId: string, key: string, now: number, locate: () => Promise<LocatedMap>): Promise<LocatedMap> {
    let project = this.byProject.get(projectId);
    const known = project?.get(key);
    if (known && known.until >= now) return known.located;
    if (this.entries >= MAX_ENTRIES) this.clear();
    if (!project) {
      project = new Map();
      this.byProject.set(projectId, project);
    }
    const located = locate();
    const entry: Entry = { located, until: Number.POSITIVE_INFINITY };
    if (!known) this.entries++;
    project.set(key, entry);
    const drop = () => {
      // Only this entry: the project may have been forgotten, or the key looked up again, meanwhile.
      if (this.byProject.get(projectId)?.get(key) !== entry) return;
      this.byProject.get(projectId)!.delete(key);
      this.entries--;
    };
    located.then(
      (result) => {
        // An inline map's answer holds its bytes: not worth keeping.
        if (result.ok && result.inline) drop();
        else entry.until = now + (result.ok ? HIT_TTL_MS : MISS_TTL_MS);
      },
      drop,
    );
    return located;
  }

  forget(projectId: string): void {
    const project = this.byProject.get(projectId);
    if (!project) return;
    this.entries -= project.size;
    this.byProject.delete(projectId);
  }

  clear(): void {
    this.byProject.clear();
    this.entries = 0;
  }

  get size(): number {
    return this.entries;
  }
}
