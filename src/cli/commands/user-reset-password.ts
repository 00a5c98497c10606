/** `periscope user reset-password`: a forgotten password. Sets a new one and signs the person out everywhere. */
import { requireUserByEmail } from "../../services/accounts/users";
import { resetPassword } from "../../services/accounts/users";
import { required } from "../args";
import { emailArgument, print, withStorage, defineCommand } from "../context";
import { PASSWORD_FLAGS, PASSWORD_HELP, readPassword } from "../password";

const FLAGS = { email: { type: "string" }, ...PASSWORD_FLAGS } as const;

const HELP = `Usage: periscope user reset-password --email <address> [--password-stdin | --password <p>]

Sets a new password for the account and ends all of its login sessions (every browser is signed out).
API tokens are not affected; revoke them in the UI.

  --email <address>     the account
${PASSWORD_HELP}

Example: printf '%s\\n' "$PASSWORD" | periscope user reset-password --email ana@example.com --password-stdin`;

export const userResetPassword = defineCommand({ name: "user reset-password", summary: "set a new password for an account and end its sessions", help: HELP, flags: FLAGS }, async (flags, context) => {
  const email = emailArgument(required(flags.email, "email"));
  return withStorage(context, async (storage) => {
    await requireUserByEmail(storage, email);
    const password = await readPassword(context, flags, `New password for ${email}: `);
    const user = await resetPassword(storage, email, password);
    print(context.stdout, `Password of ${user.email} changed; their login sessions have ended.`);
    return 0;
  });
});
