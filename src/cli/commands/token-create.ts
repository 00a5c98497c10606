/**
 * `periscope token create`: a personal API token for an account, printed alone on stdout so that
 * `TOKEN=$(periscope token create ...)` captures it. Only its digest is stored: it cannot be shown again.
 */
import { allows, ROLE_SCOPES, SCOPES, type Scope } from "../../auth/scopes";
import { AppError } from "../../errors";
import { requireUserByEmail } from "../../services/accounts/users";
import { CLI_ACTOR } from "../../services/accounts/actor";
import { createApiToken, parseScopes } from "../../services/accounts/tokens";
import { required, UsageError } from "../args";
import { emailArgument, print, withStorage, defineCommand } from "../context";

const FLAGS = { email: { type: "string" }, scopes: { type: "string" }, name: { type: "string" } } as const;

const DEFAULT_NAME = "Command line";

const HELP = `Usage: periscope token create --email <address> --scopes <scope,scope,...> [--name <name>]

Creates an API token (sent as "Authorization: Bearer <token>") owned by the account and prints only
the token on standard output. It is shown this once; it acts with those of its scopes that the
owner's role still grants in the organisation it is used with.

  --email <address>     the account that owns the token
  --scopes <list>       comma-separated, from: ${SCOPES.join(", ")}
  --name <name>         a label to tell tokens apart in the UI (default: "${DEFAULT_NAME}")

Example: TOKEN=$(periscope token create --email ci@example.com --scopes project:releases,project:read)`;

export const tokenCreate = defineCommand({ name: "token create", summary: "create an API token for an account and print it", help: HELP, flags: FLAGS }, async (flags, context) => {
  const email = emailArgument(required(flags.email, "email"));
  const requested = required(flags.scopes, "scopes").split(",").map((scope) => scope.trim()).filter(Boolean);
  if (requested.length === 0) throw new UsageError("--scopes: name at least one scope");
  const scopes = scopesArgument(requested);
  const name = flags.name === undefined ? DEFAULT_NAME : required(flags.name, "name");

  return withStorage(context, async (storage) => {
    const user = await requireUserByEmail(storage, email);
    const { token } = await createApiToken(storage, CLI_ACTOR, user, { name, scopes });
    print(context.stdout, token);
    // Notes go to stderr so that stdout stays the token alone.
    const memberships = await storage.accounts.members.listForUser(user.id);
    if (memberships.length === 0) print(context.stderr, `note: ${email} belongs to no organisation yet, so the token can do nothing until they join one`);
    for (const member of memberships) {
      const beyond = scopes.filter((scope) => !allows(ROLE_SCOPES[member.role], scope));
      if (beyond.length === 0) continue;
      const organization = await storage.organizations.getById(member.organizationId);
      print(context.stderr, `note: as ${member.role} of "${organization?.slug ?? member.organizationId}", ${email} does not hold ${beyond.join(", ")}, so the token cannot use ${beyond.length > 1 ? "them" : "it"} there`);
    }
    return 0;
  });
});

function scopesArgument(values: string[]): Scope[] {
  try {
    return parseScopes(values);
  } catch (error) {
    if (error instanceof AppError) throw new UsageError(`--scopes: ${error.message}; known scopes: ${SCOPES.join(", ")}`);
    throw error;
  }
}
