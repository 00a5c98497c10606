import { projectOptionsFrom, type Project, type ProjectKey, type ProjectOptions } from "../model";
import type { Storage } from "../storage/types";
import { compileFilters, type EventFilter } from "./inbound-filters";
import { compileQuotaPlan, type QuotaPlan } from "./quota-plan";
import type { SpikeLimitCache } from "./spike-protection";

export interface ResolvedKey {
  key: ProjectKey;
  project: Project;
  /** The project's ingest options (allowed origins), cached with the key. */
  options: ProjectOptions;
  /** Its inbound filters, compiled; null when none is on. */
  filter: EventFilter | null;
  /** Its quotas, its organisation's and spike protection (src/ingest/quotas.ts); null when none applies. */
  quotas: QuotaPlan | null;
}

interface Entry {
  value: ResolvedKey | null;
  expires: number;
}

/**
 * Public key → key and project, cached because every ingest request needs it. The storage reports
 * key and project changes — made by this process or, on PostgreSQL, by any process sharing the
 * database (LISTEN/NOTIFY; docs/adr/0002) — and the cache empties; the TTL bounds staleness should a
 * notification be lost. Unknown keys are cached too (briefly) so a flood with a bad key does not
 * become a flood of queries.
 */
export class KeyCache {
  private entries = new Map<string, Entry>();
  /** Bumped by `invalidate()`: a lookup that started before a change must not cache its answer. */
  private generation = 0;

  constructor(
    private readonly storage: Storage,
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 10_000,
    /** Spike protection's limits; absent (tests, benchmarks): spike protection is never applied. */
    private readonly spikes?: SpikeLimitCache,
  ) {
    storage.onKeysChanged(() => this.invalidate());
  }

  /** The cached answer for this key, or undefined when resolve() would have to ask the storage. */
  peek(publicKey: string): ResolvedKey | null | undefined {
    const cached = this.entries.get(publicKey);
    return cached && cached.expires > Date.now() ? cached.value : undefined;
  }

  async resolve(publicKey: string): Promise<ResolvedKey | null> {
    const now = Date.now();
    const cached = this.entries.get(publicKey);
    if (cached && cached.expires > now) return cached.value;
    const generation = this.generation;
    const key = await this.storage.keys.getByPublicKey(publicKey);
    const project = key ? await this.storage.projects.getById(key.projectId) : null;
    const options = project ? projectOptionsFrom(await this.storage.projectOptions.get(project.id)) : null;
    const quotas = project && options ? await this.quotaPlan(project, options) : null;
    const value = key && project && options ? { key, project, options, filter: compileFilters(options.filters), quotas } : null;
    if (generation !== this.generation) return value;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(publicKey, { value, expires: now + (value ? this.ttlMs : Math.min(this.ttlMs, 5_000)) });
    return value;
  }

  private async quotaPlan(project: Project, options: ProjectOptions): Promise<QuotaPlan | null> {
    const quotas = await this.storage.quotas.forProject(project.organizationId, project.id);
    const spike = options.spikeProtection && this.spikes ? await this.spikes.limitsFor(project.id) : null;
    return compileQuotaPlan(project, quotas, spike);
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }
}
