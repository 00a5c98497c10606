/** `periscope org create`: another organisation, with a default team, owned by an existing account. */
import { requireUserByEmail } from "../../services/accounts/users";
import { CLI_ACTOR } from "../../services/accounts/actor";
import { createOrganization } from "../../services/organizations/create-organization";
import { required } from "../args";
import { emailArgument, print, withStorage, defineCommand } from "../context";

const FLAGS = { name: { type: "string" }, slug: { type: "string" }, owner: { type: "string" } } as const;

const HELP = `Usage: periscope org create --name <name> --owner <email> [--slug <slug>]

Creates an organisation with a team "default" and makes the account its owner (who then invites
everyone else from the UI). Prints the new organisation's slug.

  --name <name>         shown in the UI
  --owner <email>       an existing account (create one with \`periscope user create\`)
  --slug <slug>         lower-case letters, digits, '-' and '_' (default: from the name)`;

export const orgCreate = defineCommand({ name: "org create", summary: "create an organisation owned by an existing account", help: HELP, flags: FLAGS }, async (flags, context) => {
  const name = required(flags.name, "name");
  const email = emailArgument(required(flags.owner, "owner"), "owner");
  const slug = flags.slug === undefined ? undefined : required(flags.slug, "slug");
  return withStorage(context, async (storage) => {
    const owner = await requireUserByEmail(storage, email);
    const organization = await createOrganization(storage, CLI_ACTOR, owner, { name, slug });
    print(context.stdout, organization.slug);
    return 0;
  });
});
