/**
 * A new organisation with its default team, owned by an existing account (command line only: the UI
 * has one installation-wide operator model, where the server's operator decides who gets an
 * organisation).
 */
import { z } from "zod";
import { AppError } from "../../errors";
import type { Organization, Storage, User } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";
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
  const parsed = createOrganizationInput.safeParse(input);
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues.map((issue) => issue.message).join("; "));
  const slug = parsed.data.slug ?? slugify(parsed.data.name);
  if (await storage.organizations.getBySlug(slug)) throw new AppError("conflict", `an organization with the slug "${slug}" already exists`);
  const organization = await storage.organizations.create({ slug, name: parsed.data.name });
  const team = await storage.accounts.teams.create({ organizationId: organization.id, slug: DEFAULT_TEAM_SLUG, name: "Default team" });
  const member = await storage.accounts.members.add({ organizationId: organization.id, userId: owner.id, role: "owner" });
  await storage.accounts.teams.addMember(team.id, member.id);
  await recordAudit(storage, actor, organization.id, "org.create", { type: "organization", id: organization.id }, { slug });
  await recordAudit(storage, actor, organization.id, "member.add", { type: "member", id: member.id }, { email: owner.email, role: "owner" });
  return organization;
}
