/**
 * `periscope <command>` — operator commands (bin/periscope.js runs this file through tsx). They read
 * the same environment as the server (DATA_DIR, DATABASE_URL, ...), so run them on the server machine
 * with the server's environment. Exit codes: 0 success, 1 the operation failed (a user exists, an
 * account is missing, the database is unreachable), 2 the command line is wrong.
 */
import { ConfigError } from "../config";
import { AppError } from "../errors";
import { UsageError } from "./args";
import { orgCreate } from "./commands/org-create";
import { orgList } from "./commands/org-list";
import { tokenCreate } from "./commands/token-create";
import { userCreate } from "./commands/user-create";
import { userResetPassword } from "./commands/user-reset-password";
import { print, processContext, type CliCommand, type CliContext } from "./context";
import { migrateToPostgresCommand } from "./migrate-to-postgres";
import { Interrupted } from "./password";

const migrateToPostgres: CliCommand = {
  name: "migrate-to-postgres",
  summary: "copy a SQLite installation into an empty PostgreSQL database and verify the counts",
  help: "", // the command prints its own
  run: (argv) => migrateToPostgresCommand([...argv]),
};

const COMMANDS: readonly CliCommand[] = [userCreate, userResetPassword, tokenCreate, orgList, orgCreate, migrateToPostgres];

function help(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length)) + 2;
  return [
    "Usage: periscope <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    "",
    "Run `periscope <command> --help` for a command's options. The server itself: `npm start`.",
    "",
    "The commands read the same environment as the server: DATA_DIR (the SQLite installation, default",
    "./data) or DATABASE_URL (PostgreSQL). Run them on the server machine with the server's environment.",
    "Only `user create` makes a new SQLite database; the others refuse a DATA_DIR that holds none.",
    "Exit codes: 0 done, 1 the operation failed, 2 the command line is wrong.",
  ].join("\n");
}

/** The command named by the first one or two words, and the arguments after them. */
function find(argv: readonly string[]): { command: CliCommand; rest: readonly string[] } | null {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(" ");
    const command = COMMANDS.find((candidate) => candidate.name === name);
    if (command) return { command, rest: argv.slice(words) };
  }
  return null;
}

/** `periscope user` alone (or with --help): the commands of that group. */
function groupHelp(group: string): string | null {
  const members = COMMANDS.filter((command) => command.name.startsWith(`${group} `));
  if (members.length === 0) return null;
  const width = Math.max(...members.map((command) => command.name.length)) + 2;
  return [
    `Usage: periscope ${group} <command> [options]`,
    "",
    ...members.map((command) => `  ${command.name.padEnd(width)}${command.summary}`),
    "",
    "Run `periscope <command> --help` for a command's options.",
  ].join("\n");
}

async function main(argv: readonly string[], context: CliContext): Promise<number> {
  const [first, second] = argv;
  if (!first || first === "--help" || first === "-h" || first === "help") {
    print(context.stdout, help());
    return 0;
  }
  const found = find(argv);
  if (!found) {
    const group = groupHelp(first);
    if (group && (second === undefined || second === "--help" || second === "-h")) {
      print(context.stdout, group);
      return 0;
    }
    const name = group && second !== undefined ? `${first} ${second}` : first;
    print(context.stderr, `error: unknown command: ${name}\n\n${group ?? help()}`);
    return 2;
  }
  const { command, rest } = found;
  try {
    return await command.run(rest, context);
  } catch (error) {
    return report(error, command, context);
  }
}

function report(error: unknown, command: CliCommand, context: CliContext): number {
  if (error instanceof UsageError) {
    print(context.stderr, `error: ${error.message}\nRun \`periscope ${command.name} --help\` for its options.`);
    return 2;
  }
  if (error instanceof Interrupted) return 130;
  if (error instanceof AppError) {
    print(context.stderr, `error: ${error.message}`);
    // The services' own checks of what was typed (an email, a password) are command-line problems too.
    return error.code === "bad_request" ? 2 : 1;
  }
  if (error instanceof ConfigError) {
    print(context.stderr, `error: ${error.message}\n(the command reads the same environment as the server)`);
    return 1;
  }
  // node:util parseArgs (migrate-to-postgres): an unknown flag or a missing value.
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS_") && error instanceof Error) {
    print(context.stderr, `error: ${error.message}`);
    return 2;
  }
  print(context.stderr, `error: ${error instanceof Error ? error.message : String(error)}`);
  return 1;
}

main(process.argv.slice(2), processContext()).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? `error: ${error.message}` : error);
    process.exit(1);
  },
);
