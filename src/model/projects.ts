/** Organisations, their projects and the projects' DSN keys: app data, as every layer sees it. Times are Unix ms. */

export interface Organization {
  id: string;
  slug: string;
  name: string;
  dateCreated: number;
}

export interface Project {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  platform: string | null;
  dateCreated: number;
}

export interface ProjectKey {
  id: string;
  projectId: string;
  label: string;
  /** 32 lower-case hex chars: the DSN's user part. */
  publicKey: string;
  isActive: boolean;
  dateCreated: number;
  /** At most `count` events per `window` seconds (Sentry's `rateLimit`); null: no limit. */
  rateLimit: KeyRateLimit | null;
}

export interface KeyRateLimit {
  /** Seconds. */
  window: number;
  count: number;
}

/**
 * A project's ingest options (Sentry's project options), read on the ingest path from the key
 * cache. `allowedDomains`: origins browser SDK traffic may come from; `["*"]` allows any.
 */
export interface ProjectOptions {
  allowedDomains: string[];
}

export const DEFAULT_PROJECT_OPTIONS: ProjectOptions = Object.freeze({ allowedDomains: ["*"] }) as ProjectOptions;
