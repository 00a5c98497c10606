/** The data scrubbing fields of Sentry's detailed project and organisation serializers. */
import type { PrivacySettings } from "../../model";

export interface PrivacyJson {
  dataScrubber: boolean;
  dataScrubberDefaults: boolean;
  sensitiveFields: string[];
  safeFields: string[];
  scrubIPAddresses: boolean;
  relayPiiConfig: string | null;
}

export function serializePrivacy(settings: PrivacySettings): PrivacyJson {
  return {
    dataScrubber: settings.dataScrubber,
    dataScrubberDefaults: settings.dataScrubberDefaults,
    sensitiveFields: settings.sensitiveFields,
    safeFields: settings.safeFields,
    scrubIPAddresses: settings.scrubIPAddresses,
    relayPiiConfig: settings.relayPiiConfig,
  };
}
