import { z } from "zod";
import { AppError } from "../../errors";
import type { Organization, Project, ProjectKey, Team } from "../../model";
import type { Storage } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";
import { addDefaultRule } from "../alerts/rules";
import { slugify, slugSchema } from "./slug";

export const createProjectInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  slug: slugSchema.optional(),
  platform: z.string().trim().max(64).nullable().optional(),
});
export type CreateProjectInput = z.infer<typeof createProjectInput>;

/**
 * Creates a project with its first DSN key and the default alert rule, as Sentry does, owned by
 * `team` (null: no team, so only owners and admins see it — the self-monitoring project).
 */
export async function createProject(
  storage: Storage,
  actor: Actor,
  organization: Organization,
  team: Team | null,
  input: CreateProjectInput,
): Promise<{ project: Project; key: ProjectKey }> {
  const slug = input.slug ?? slugify(input.name);
  if (await storage.projects.getBySlug(organization.id, slug)) {
    throw new AppError("conflict", `a project with the slug "${slug}" already exists in this organization`);
  }
  const project = await storage.projects.create({
    organizationId: organization.id,
    slug,
    name: input.name,
    platform: input.platform ?? null,
  });
  const key = await storage.keys.create({ projectId: project.id, label: "Default" });
  if (team) await storage.accounts.teams.addProject(team.id, project.id);
  // Alerts (issue 34): every new project starts with one rule, so a new issue never goes unnoticed.
  await addDefaultRule(storage, project.id);
  await recordAudit(storage, actor, organization.id, "project.create", { type: "project", id: project.id }, { slug, team: team?.slug ?? null });
  await recordAudit(storage, actor, organization.id, "key.create", { type: "key", id: key.id }, { project: slug, label: key.label });
  return { project, key };
}
