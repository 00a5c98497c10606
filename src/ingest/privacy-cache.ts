import { effectivePrivacy, type EffectivePrivacy, type Project } from "../model";
import { compileScrubber, type Scrubber } from "../processing/scrub/scrubber";
import type { Storage } from "../storage/types";

interface Entry {
  scrubber: Scrubber | null;
  expires: number;
}

/**
 * Project id → its compiled data scrubbing (src/processing/scrub), for the ingest path, which must
 * not query settings per request. Emptied on every key, project or settings change the storage
 * reports (PostgreSQL: LISTEN/NOTIFY from any process, docs/adr/0002), like the key cache
 * (src/ingest/keys.ts); the TTL bounds staleness should a notification be lost.
 */
export class PrivacyCache {
  private entries = new Map<string, Entry>();
  /** Compiled once per distinct settings: a cache flush does not recompile RE2 patterns for every project. */
  private compiled = new Map<string, Scrubber | null>();
  private generation = 0;

  constructor(
    private readonly storage: Storage,
    private readonly onBadSettings: (projectId: string, error: unknown) => void = () => {},
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {
    storage.onKeysChanged(() => this.invalidate());
  }

  /** The cached scrubber, or undefined when resolve() would have to ask the storage. */
  peek(projectId: string): Scrubber | null | undefined {
    const cached = this.entries.get(projectId);
    return cached && cached.expires > Date.now() ? cached.scrubber : undefined;
  }

  async resolve(project: Project): Promise<Scrubber | null> {
    const now = Date.now();
    const cached = this.entries.get(project.id);
    if (cached && cached.expires > now) return cached.scrubber;
    const generation = this.generation;
    const [organization, own] = await Promise.all([
      this.storage.privacy.getForOrganization(project.organizationId),
      this.storage.privacy.getForProject(project.id),
    ]);
    const scrubber = this.compile(project.id, effectivePrivacy(organization, own));
    if (generation !== this.generation) return scrubber;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(project.id, { scrubber, expires: now + this.ttlMs });
    return scrubber;
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  private compile(projectId: string, privacy: EffectivePrivacy): Scrubber | null {
    const key = JSON.stringify(privacy);
    const known = this.compiled.get(key);
    if (known !== undefined) return known;
    let scrubber: Scrubber | null;
    try {
      scrubber = compileScrubber(privacy);
    } catch (error) {
      // Settings are validated before they are stored. Should advanced rules still fail to compile
      // (a newer version's rule read by an older one), the rest of the settings apply without them.
      this.onBadSettings(projectId, error);
      scrubber = compileScrubber(Object.assign({}, privacy, { relayPiiConfigs: [] }));
    }
    if (this.compiled.size >= 1_000) this.compiled.clear();
    this.compiled.set(key, scrubber);
    return scrubber;
  }
}
