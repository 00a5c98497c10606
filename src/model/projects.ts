/** Organisations, their projects and the projects' DSN keys: app data, as every layer sees it. Times are Unix ms. */

import { SPIKE_PROTECTION_OPTION } from "./quotas";

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
  filters: InboundFilters;
  /** Spike protection (issue 33 item 4, src/ingest/spike-protection.ts); off unless set. */
  spikeProtection: boolean;
}

/** Sentry's inbound filter ids (`/filters/{filter_id}/`), which are also the outcome reasons of what they drop. */
export const INBOUND_FILTER_IDS = ["browser-extensions", "localhost", "legacy-browsers", "web-crawlers"] as const;
export type InboundFilterId = (typeof INBOUND_FILTER_IDS)[number];

/** Sentry's legacy-browser subfilters: which old browsers `legacy-browsers` drops. */
export const LEGACY_BROWSER_SUBFILTERS = ["ie", "edge", "safari", "firefox", "chrome", "opera", "opera_mini", "android"] as const;

/**
 * A project's inbound filters: events they match are dropped before they are stored and counted as
 * outcome `filtered` with the filter's reason (src/ingest/inbound-filters.ts).
 */
export interface InboundFilters {
  browserExtensions: boolean;
  localhost: boolean;
  webCrawlers: boolean;
  /** Subfilter ids (LEGACY_BROWSER_SUBFILTERS); empty: off. */
  legacyBrowsers: string[];
  /** Globs over the exception (`Type: value`) or message; case-insensitive. */
  errorMessages: string[];
  /** Globs over the release. */
  releases: string[];
  /** Addresses and CIDR ranges of the client. */
  ipAddresses: string[];
}

/** Sentry's option names for the filters. */
export const FILTER_OPTIONS = {
  "browser-extensions": "filters:browser-extensions",
  localhost: "filters:localhost",
  "web-crawlers": "filters:web-crawlers",
  "legacy-browsers": "filters:legacy-browsers",
  errorMessages: "filters:error_messages",
  releases: "filters:releases",
  ipAddresses: "filters:blacklisted_ips",
} as const;

/** Sentry's option name for `allowedDomains`. */
export const ORIGINS_OPTION = "sentry:origins";

/** A project's options from their stored JSON (ProjectOptionsRepo); anything malformed reads as the default. */
export function projectOptionsFrom(stored: Record<string, unknown>): ProjectOptions {
  const origins = stored[ORIGINS_OPTION];
  const allowedDomains = Array.isArray(origins) ? strings(origins) : ["*"];
  const list = (name: string) => (Array.isArray(stored[name]) ? strings(stored[name] as unknown[]) : []);
  return {
    allowedDomains,
    filters: {
      browserExtensions: stored[FILTER_OPTIONS["browser-extensions"]] === true,
      localhost: stored[FILTER_OPTIONS.localhost] === true,
      webCrawlers: stored[FILTER_OPTIONS["web-crawlers"]] === true,
      legacyBrowsers: list(FILTER_OPTIONS["legacy-browsers"]),
      errorMessages: list(FILTER_OPTIONS.errorMessages),
      releases: list(FILTER_OPTIONS.releases),
      ipAddresses: list(FILTER_OPTIONS.ipAddresses),
    },
    spikeProtection: stored[SPIKE_PROTECTION_OPTION] === true,
  };
}

function strings(values: unknown[]): string[] {
  return values.filter((entry): entry is string => typeof entry === "string");
}
