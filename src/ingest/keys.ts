import type { Project, ProjectKey, Storage } from "../storage/types";

export interface ResolvedKey {
  key: ProjectKey;
  project: Project;
}

interface Entry {
  value: ResolvedKey | null;
  expires: number;
}

/**
 * Public key → key and project, cached because every ingest request needs it. Changes made through
 * this process call `invalidate()`; the TTL bounds staleness for changes made elsewhere. Unknown keys
 * are cached too (briefly) so a flood with a bad key does not become a flood of queries.
 */
export class KeyCache {
  private entries = new Map<string, Entry>();

  constructor(
    private readonly storage: Storage,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
  ) {}

  async resolve(publicKey: string): Promise<ResolvedKey | null> {
    const now = Date.now();
    const cached = this.entries.get(publicKey);
    if (cached && cached.expires > now) return cached.value;
    const key = await this.storage.keys.getByPublicKey(publicKey);
    const project = key ? await this.storage.projects.getById(key.projectId) : null;
    const value = key && project ? { key, project } : null;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(publicKey, { value, expires: now + (value ? this.ttlMs : Math.min(this.ttlMs, 5_000)) });
    return value;
  }

  invalidate(): void {
    this.entries.clear();
  }
}
