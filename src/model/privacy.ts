/**
 * Data scrubbing settings of an organisation or a project (Sentry's "Security & Privacy" fields, with
 * Sentry's API names). What ingest applies to a project is the two merged (`effectivePrivacy`): as
 * in Sentry, an organisation's switches cannot be turned off by a project, and field lists add up.
 */
export interface PrivacySettings {
  /** Scrub at all (Sentry's `dataScrubber`). On by default. */
  dataScrubber: boolean;
  /** Use the default sensitive keys and value patterns (Sentry's `dataScrubberDefaults`). On by default. */
  dataScrubberDefaults: boolean;
  /** More key names (matched as substrings, any case) whose values are filtered. */
  sensitiveFields: string[];
  /** Key names (exact, any case) whose values are never scrubbed. */
  safeFields: string[];
  /** Drop `user.ip_address`, `request.env.REMOTE_ADDR`, `sdk.client_ip` and never infer the client's IP. */
  scrubIPAddresses: boolean;
  /** Advanced rules in Relay's PII config format (JSON text), or null. Validated before it is stored. */
  relayPiiConfig: string | null;
}

export const DEFAULT_PRIVACY: Readonly<PrivacySettings> = Object.freeze({
  dataScrubber: true,
  dataScrubberDefaults: true,
  sensitiveFields: [],
  safeFields: [],
  scrubIPAddresses: false,
  relayPiiConfig: null,
});

/** What a project's events are scrubbed with: its organisation's settings and its own, merged. */
export interface EffectivePrivacy {
  dataScrubber: boolean;
  dataScrubberDefaults: boolean;
  sensitiveFields: string[];
  safeFields: string[];
  scrubIPAddresses: boolean;
  /** The organisation's advanced rules first, then the project's. */
  relayPiiConfigs: string[];
}

const union = (a: string[], b: string[]) => [...new Set([...a, ...b].map((field) => field.trim()).filter((field) => field !== ""))];

export function effectivePrivacy(organization: PrivacySettings, project: PrivacySettings): EffectivePrivacy {
  return {
    dataScrubber: organization.dataScrubber || project.dataScrubber,
    dataScrubberDefaults: organization.dataScrubberDefaults || project.dataScrubberDefaults,
    sensitiveFields: union(organization.sensitiveFields, project.sensitiveFields),
    safeFields: union(organization.safeFields, project.safeFields),
    scrubIPAddresses: organization.scrubIPAddresses || project.scrubIPAddresses,
    relayPiiConfigs: [organization.relayPiiConfig, project.relayPiiConfig].filter((config): config is string => config !== null),
  };
}
