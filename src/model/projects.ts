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

/** Sentry's option name for `allowedDomains`. */
export const ORIGINS_OPTION = "sentry:origins";

/** A project's options from their stored JSON (ProjectOptionsRepo); anything malformed reads as the default. */
export function projectOptionsFrom(stored: Record<string, unknown>): ProjectOptions {
  const origins = stored[ORIGINS_OPTION];
  const allowedDomains = Array.isArray(origins) ? origins.filter((entry): entry is string => typeof entry === "string") : ["*"];
  return { allowedDomains };
}
