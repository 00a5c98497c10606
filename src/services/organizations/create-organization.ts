/**
 * A new organisation with its default team, owned by an existing account (command line only: the UI
 * has one installation-wide operator model, where the server's operator decides who gets an
 * organisation).
 */
import { z } from "zod";
import { AppError } from "../../errors";
import { parseInput } from "../parse-input";
import type { Organization, User } from "../../model";
import type { Storage } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";
import { addMember } from "../accounts/users";
import { DEFAULT_TEAM_SLUG } from "../projects/ensure-defaults";
import { slugify, slugSchema } from "../projects/slug";

const createOrganizationInput = z.object({
  name: z.string().trim().min(1, "name: must not be empty").max(100, "name: must be at most 100 characters"),
  slug: slugSchema.optional(),
});

export async function createOrganization(
  storage: Storage,
  actor: Actor,
  owner: User,
  input: z.input<typeof createOrganizationInput>,
): Promise<Organization> {
  const data = parseInput(createOrganizationInput, input);
  const slug = data.slug ?? slugify(data.name);
  if (await storage.organizations.getBySlug(slug)) throw new AppError("conflict", `an organization with the slug "${slug}" already exists`);
  const organization = await storage.organizations.create({ slug, name: data.name });
  await storage.accounts.teams.create({ organizationId: organization.id, slug: DEFAULT_TEAM_SLUG, name: "Default team" });
  await recordAudit(storage, actor, organization.id, "org.create", { type: "organization", id: organization.id }, { slug });
  await addMember(storage, actor, organization, owner, "owner");
  return organization;
}
