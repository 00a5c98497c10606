/**
 * Data scrubbing settings (docs/security.md, "Data scrubbing"): read and changed per organisation
 * and per project, with Sentry's field names. Advanced rules are compiled before they are stored,
 * so a bad pattern is refused here (400 naming it) and never reaches ingest.
 */
import { z } from "zod";
import { AppError } from "../../errors";
import type { Organization, PrivacySettings, Project } from "../../model";
import { compilePiiConfig, PiiConfigError } from "../../processing/scrub/pii-config";
import type { Storage } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";
import { parseInput } from "../parse-input";

export { DEFAULT_SENSITIVE_KEYS } from "../../processing/scrub/defaults";

const MAX_FIELDS = 200;
const MAX_FIELD_LENGTH = 200;
const MAX_PII_CONFIG_BYTES = 64 * 1024;

const fieldList = z
  .array(z.string().max(MAX_FIELD_LENGTH, `each field must be at most ${MAX_FIELD_LENGTH} characters`))
  .max(MAX_FIELDS, `at most ${MAX_FIELDS} fields`)
  .transform((fields) => [...new Set(fields.map((field) => field.trim()).filter((field) => field !== ""))]);

/** A change: any of the fields; the others keep their values. */
export const privacyInput = z.strictObject({
  dataScrubber: z.boolean().optional(),
  dataScrubberDefaults: z.boolean().optional(),
  sensitiveFields: fieldList.optional(),
  safeFields: fieldList.optional(),
  scrubIPAddresses: z.boolean().optional(),
  relayPiiConfig: z
    .string()
    .max(MAX_PII_CONFIG_BYTES, `must be at most ${MAX_PII_CONFIG_BYTES} characters`)
    .nullable()
    .optional()
    .transform((text) => (text === undefined ? undefined : text === null || text.trim() === "" ? null : text)),
});
export type PrivacyInput = z.infer<typeof privacyInput>;

/** Refuses advanced rules that do not compile, naming the problem. */
function checkPiiConfig(text: string | null): void {
  if (text === null) return;
  try {
    compilePiiConfig(text);
  } catch (error) {
    if (error instanceof PiiConfigError) throw new AppError("bad_request", error.message);
    throw error;
  }
}

function merged(current: PrivacySettings, input: PrivacyInput): PrivacySettings {
  return {
    dataScrubber: input.dataScrubber ?? current.dataScrubber,
    dataScrubberDefaults: input.dataScrubberDefaults ?? current.dataScrubberDefaults,
    sensitiveFields: input.sensitiveFields ?? current.sensitiveFields,
    safeFields: input.safeFields ?? current.safeFields,
    scrubIPAddresses: input.scrubIPAddresses ?? current.scrubIPAddresses,
    relayPiiConfig: input.relayPiiConfig === undefined ? current.relayPiiConfig : input.relayPiiConfig,
  };
}

/** The input's fields that changed, for the audit log (the rules themselves may be long). */
function changes(before: PrivacySettings, after: PrivacySettings): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof PrivacySettings)[]) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    changed[key] = key === "relayPiiConfig" ? (after.relayPiiConfig === null ? null : "changed") : after[key];
  }
  return changed;
}

export function projectPrivacy(storage: Storage, project: Project): Promise<PrivacySettings> {
  return storage.privacy.getForProject(project.id);
}

export function organizationPrivacy(storage: Storage, organization: Organization): Promise<PrivacySettings> {
  return storage.privacy.getForOrganization(organization.id);
}

/** Changes a project's settings; ingest's caches hear of it through the storage (PrivacyCache). */
export async function updateProjectPrivacy(storage: Storage, actor: Actor, project: Project, body: unknown): Promise<PrivacySettings> {
  const input = parseInput(privacyInput, body);
  if (input.relayPiiConfig !== undefined) checkPiiConfig(input.relayPiiConfig);
  const before = await storage.privacy.getForProject(project.id);
  const after = merged(before, input);
  await storage.privacy.setForProject(project.id, after);
  await recordAudit(storage, actor, project.organizationId, "project.privacy_change", { type: "project", id: project.id }, { project: project.slug, ...changes(before, after) });
  return after;
}

export async function updateOrganizationPrivacy(storage: Storage, actor: Actor, organization: Organization, body: unknown): Promise<PrivacySettings> {
  const input = parseInput(privacyInput, body);
  if (input.relayPiiConfig !== undefined) checkPiiConfig(input.relayPiiConfig);
  const before = await storage.privacy.getForOrganization(organization.id);
  const after = merged(before, input);
  await storage.privacy.setForOrganization(organization.id, after);
  await recordAudit(storage, actor, organization.id, "organization.privacy_change", { type: "organization", id: organization.id }, changes(before, after));
  return after;
}
