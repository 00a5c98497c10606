import { z } from "zod";
import { AppError } from "../../errors";
import type { Organization, Project, ProjectKey, Storage } from "../../storage/types";
import { slugify, slugSchema } from "./slug";

export const createProjectInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  slug: slugSchema.optional(),
  platform: z.string().trim().max(64).nullable().optional(),
});
export type CreateProjectInput = z.infer<typeof createProjectInput>;

/** Creates a project with its first DSN key, as Sentry does. */
export async function createProject(
  storage: Storage,
  organization: Organization,
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
  return { project, key };
}
