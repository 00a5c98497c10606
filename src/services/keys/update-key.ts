import { z } from "zod";
import { AppError } from "../../errors";
import type { Project, ProjectKey } from "../../model";
import type { Storage } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";

/** Sentry's rate-limit bounds: a window of up to a day. */
export const MAX_RATE_LIMIT_WINDOW_SECONDS = 86_400;

const rateLimit = z
  .object({
    window: z.number().int("must be a whole number of seconds").min(1, "must be at least 1 second").max(MAX_RATE_LIMIT_WINDOW_SECONDS, "must be at most 86400 seconds (a day)").nullable(),
    count: z.number().int("must be a whole number").min(0, "must not be negative").max(1_000_000_000, "must be at most 1000000000").nullable(),
  })
  .strict()
  .refine((limit) => (limit.window === null) === (limit.count === null), "window and count must both be set, or both null to remove the limit");

/** Sentry's ProjectKey PUT: name, isActive, rateLimit ({window, count}; null or both null removes it). */
export const updateKeyInput = z.object({
  name: z.string().trim().max(64, "must be at most 64 characters").optional(),
  isActive: z.boolean().optional(),
  rateLimit: rateLimit.nullable().optional(),
});
export type UpdateKeyInput = z.infer<typeof updateKeyInput>;

/** A key of this project by its public key (Sentry's key id); 404 otherwise. */
export async function getKey(storage: Storage, project: Project, publicKey: string): Promise<ProjectKey> {
  const key = /^[0-9a-f]{32}$/.test(publicKey) ? await storage.keys.getByPublicKey(publicKey) : null;
  if (!key || key.projectId !== project.id) throw new AppError("not_found", "client key not found");
  return key;
}

/**
 * Renames, disables or enables a key, or sets its rate limit. A disabled key is refused by every
 * process at once: the storage announces the change to every key cache.
 */
export async function updateKey(storage: Storage, actor: Actor, project: Project, publicKey: string, input: UpdateKeyInput): Promise<ProjectKey> {
  await getKey(storage, project, publicKey);
  const limit = input.rateLimit;
  const updated = await storage.keys.update(project.id, publicKey, {
    label: input.name,
    isActive: input.isActive,
    rateLimit: limit === undefined ? undefined : limit === null || limit.window === null || limit.count === null ? null : { window: limit.window, count: limit.count },
  });
  if (!updated) throw new AppError("not_found", "client key not found");
  await recordAudit(storage, actor, project.organizationId, "key.edit", { type: "key", id: updated.id }, {
    project: project.slug,
    label: updated.label,
    isActive: updated.isActive,
    rateLimit: updated.rateLimit,
  });
  return updated;
}

/** Revokes a key: it is deleted, and every process refuses it at once. */
export async function revokeKey(storage: Storage, actor: Actor, project: Project, publicKey: string): Promise<void> {
  const key = await getKey(storage, project, publicKey);
  if (!(await storage.keys.remove(project.id, publicKey))) throw new AppError("not_found", "client key not found");
  await recordAudit(storage, actor, project.organizationId, "key.remove", { type: "key", id: key.id }, { project: project.slug, label: key.label });
}
