import { z } from "zod";
import type { Project, ProjectKey } from "../../model";
import type { Storage } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";

export const createKeyInput = z.object({
  name: z.string().trim().max(64, "must be at most 64 characters").nullable().optional(),
});
export type CreateKeyInput = z.infer<typeof createKeyInput>;

/**
 * Adds a DSN key to a project. Without a name the label stays empty and, as in Sentry, the key is
 * shown under the first 14 characters of its public key. The caller must drop cached keys afterwards
 * so ingest accepts the new key at once.
 */
export async function createKey(storage: Storage, actor: Actor, project: Project, input: CreateKeyInput): Promise<ProjectKey> {
  const key = await storage.keys.create({ projectId: project.id, label: input.name ?? "" });
  await recordAudit(storage, actor, project.organizationId, "key.create", { type: "key", id: key.id }, { project: project.slug, label: key.label });
  return key;
}
