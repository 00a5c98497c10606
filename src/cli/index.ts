/**
 * `periscope <command>` — operator commands (bin/periscope.js runs this file through tsx).
 */
import { migrateToPostgresCommand } from "./migrate-to-postgres";

const COMMANDS: Record<string, { summary: string; run: (argv: string[]) => Promise<number> }> = {
  "migrate-to-postgres": {
    summary: "copy a SQLite installation into an empty PostgreSQL database and verify the counts",
    run: migrateToPostgresCommand,
  },
};

function help(): void {
  console.log("Usage: periscope <command> [options]\n\nCommands:");
  for (const [name, command] of Object.entries(COMMANDS)) console.log(`  ${name.padEnd(22)}${command.summary}`);
  console.log("\nRun `periscope <command> --help` for a command's options. The server itself: `npm start`.");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    help();
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`unknown command: ${name}\n`);
    help();
    return 2;
  }
  return command.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? `error: ${error.message}` : error);
    process.exit(1);
  },
);
