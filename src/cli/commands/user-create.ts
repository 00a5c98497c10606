/**
 * `periscope user create`: an account. The installation's first account becomes owner of the default
 * organisation (created if the server never ran); later ones join --org with --role.
 */
import { AppError } from "../../errors";
import { isRole, ROLES, type Role } from "../../auth/scopes";
import { CLI_ACTOR } from "../../services/accounts/actor";
import { addMember, createOwner, createUser, needsSetup } from "../../services/accounts/users";
import { DEFAULT_ORGANIZATION_SLUG, ensureDefaults } from "../../services/projects/ensure-defaults";
import { required, UsageError } from "../args";
import { emailArgument, print, withStorage, defineCommand } from "../context";
import { PASSWORD_FLAGS, PASSWORD_HELP, readPassword } from "../password";

const FLAGS = {
  email: { type: "string" },
  name: { type: "string" },
  org: { type: "string" },
  role: { type: "string" },
  ...PASSWORD_FLAGS,
} as const;

const HELP = `Usage: periscope user create --email <address> [--name <name>] [--password-stdin | --password <p>]
                             [--org <slug>] [--role owner|admin|member|viewer]

Creates an account. The installation's first account becomes the owner of the default organisation
(the setup page is then no longer offered); every later one joins --org with --role.

  --email <address>     the login (stored lower-cased)
  --name <name>         the name shown in the UI (default: the part of the email before @)
${PASSWORD_HELP}
  --org <slug>          organisation to join (default: ${DEFAULT_ORGANIZATION_SLUG}; see \`periscope org list\`)
  --role <role>         ${ROLES.join(", ")} (default: member)

Example: printf '%s\\n' "$PASSWORD" | periscope user create --email ana@example.com --password-stdin --role admin`;

export const userCreate = defineCommand({ name: "user create", summary: "create an account (the first one becomes owner of the default organisation)", help: HELP, flags: FLAGS }, async (flags, context) => {
  const email = emailArgument(required(flags.email, "email"));
  const role = roleArgument(flags.role);
  const orgSlug = flags.org === undefined ? undefined : required(flags.org, "org");

  return withStorage(context, async (storage) => {
    if (await storage.accounts.users.getByEmail(email)) throw new AppError("conflict", `a user with the email ${email} already exists`);
    const first = await needsSetup(storage);
    if (first && ((orgSlug ?? DEFAULT_ORGANIZATION_SLUG) !== DEFAULT_ORGANIZATION_SLUG || (role ?? "owner") !== "owner")) {
      throw new AppError(
        "conflict",
        `this is the installation's first account: it becomes owner of the "${DEFAULT_ORGANIZATION_SLUG}" organisation; run again without --org/--role`,
      );
    }
    const slug = orgSlug ?? DEFAULT_ORGANIZATION_SLUG;
    // The first account may come before the server ever started: make the default organisation as it would.
    const organization = first ? (await ensureDefaults(storage)).organization : await storage.organizations.getBySlug(slug);
    if (!organization) throw new AppError("not_found", `no organisation with the slug "${slug}" (see \`periscope org list\`)`);
    const memberRole: Role = first ? "owner" : (role ?? "member");

    const password = await readPassword(context, flags, `Password for ${email}: `);
    const input = { email, name: flags.name, password };
    // The first account goes through createOwner, whose atomic insert keeps a racing setup page out.
    const user = first ? await createOwner(storage, organization, input, { via: "cli" }) : await createUser(storage, input);
    if (!first) await addMember(storage, CLI_ACTOR, organization, user, memberRole);
    print(context.stdout, `Created ${user.email} (id ${user.id}), ${memberRole} of the organisation "${organization.slug}".`);
    return 0;
    // The first account may come before the server's first start, so this command may create the database.
  }, { createsDatabase: true });
});

function roleArgument(value: string | undefined): Role | undefined {
  if (value === undefined) return undefined;
  if (!isRole(value)) throw new UsageError(`--role: unknown role "${value}"; expected one of ${ROLES.join(", ")}`);
  return value;
}
