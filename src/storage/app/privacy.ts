import { DEFAULT_PRIVACY, type PrivacySettings } from "../../model";
import type { PrivacyRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";

/**
 * A stored row read back: every field falls back to its default, so a row written by an older
 * version (fewer fields) still reads. The services validated it on the way in.
 */
function settingsOf(text: string | undefined): PrivacySettings {
  let stored: Partial<Record<keyof PrivacySettings, unknown>> = {};
  try {
    const parsed = text === undefined ? null : (JSON.parse(text) as unknown);
    if (parsed !== null && typeof parsed === "object") stored = parsed as typeof stored;
  } catch {
    // A damaged row reads as the defaults, which scrub: never as "scrub nothing".
  }
  const flag = (value: unknown, fallback: boolean) => (typeof value === "boolean" ? value : fallback);
  const list = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);
  return {
    dataScrubber: flag(stored.dataScrubber, DEFAULT_PRIVACY.dataScrubber),
    dataScrubberDefaults: flag(stored.dataScrubberDefaults, DEFAULT_PRIVACY.dataScrubberDefaults),
    sensitiveFields: list(stored.sensitiveFields),
    safeFields: list(stored.safeFields),
    scrubIPAddresses: flag(stored.scrubIPAddresses, DEFAULT_PRIVACY.scrubIPAddresses),
    relayPiiConfig: typeof stored.relayPiiConfig === "string" ? stored.relayPiiConfig : null,
  };
}

export function appPrivacy(dialect: AppDialect): PrivacyRepo {
  const { db } = dialect;
  return {
    async getForOrganization(organizationId) {
      const row = await db.selectFrom("organization_privacy").select("settings").where("organization_id", "=", rowIdOf(organizationId)).executeTakeFirst();
      return settingsOf(row?.settings);
    },
    async getForProject(projectId) {
      const row = await db.selectFrom("project_privacy").select("settings").where("project_id", "=", rowIdOf(projectId)).executeTakeFirst();
      return settingsOf(row?.settings);
    },
    async setForOrganization(organizationId, settings) {
      const values = { organization_id: rowIdOf(organizationId), settings: JSON.stringify(settings), date_updated: Date.now() };
      // Announced like a key change: ingest's settings cache (src/ingest/privacy-cache.ts) listens there.
      await dialect.announcingKeys("privacy", (q) =>
        q
          .insertInto("organization_privacy")
          .values(values)
          .onConflict((conflict) => conflict.column("organization_id").doUpdateSet({ settings: values.settings, date_updated: values.date_updated }))
          .execute(),
      );
    },
    async setForProject(projectId, settings) {
      const values = { project_id: rowIdOf(projectId), settings: JSON.stringify(settings), date_updated: Date.now() };
      await dialect.announcingKeys("privacy", (q) =>
        q
          .insertInto("project_privacy")
          .values(values)
          .onConflict((conflict) => conflict.column("project_id").doUpdateSet({ settings: values.settings, date_updated: values.date_updated }))
          .execute(),
      );
    },
  };
}
