/**
 * What every admin command shares: its streams, the storage the server uses (chosen from the same
 * DATA_DIR / DATABASE_URL environment), and checking an email address the way the services do.
 */
import { existsSync } from "node:fs";
import { loadConfig, type Config } from "../config";
import { databaseLabel, sqliteFileOf } from "../database-label";
import { newUserInput } from "../services/accounts/users";
import { createStorage } from "../storage";
import type { Storage } from "../storage/types";
import { parseFlags, UsageError, type FlagSpecs, type ParsedFlags } from "./args";

export interface CliContext {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  env: Record<string, string | undefined>;
}

export interface CliCommand {
  /** As typed after `periscope`, e.g. "user create". */
  name: string;
  summary: string;
  help: string;
  /** Resolves to the exit code; throws UsageError (exit 2) or AppError (exit 1, or 2 for bad_request). */
  run(argv: readonly string[], context: CliContext): Promise<number>;
}

/** A command whose `--help` prints `help`; otherwise `run` gets the parsed flags. */
export function defineCommand<Specs extends FlagSpecs>(
  spec: { name: string; summary: string; help: string; flags: Specs },
  run: (flags: ParsedFlags<Specs>, context: CliContext) => Promise<number>,
): CliCommand {
  return {
    name: spec.name,
    summary: spec.summary,
    help: spec.help,
    async run(argv, context) {
      const parsed = parseFlags(argv, spec.flags);
      if (parsed.help) {
        print(context.stdout, spec.help);
        return 0;
      }
      return run(parsed.flags, context);
    },
  };
}

export function processContext(): CliContext {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env };
}

export function print(stream: NodeJS.WritableStream, line: string): void {
  stream.write(`${line}\n`);
}

/**
 * Opens the installation's storage (migrating it as the server would), runs `work`, closes it.
 * A SQLite file that does not exist yet is created only for `createsDatabase` (`user create`, the
 * first account before the server's first start); any other command refuses, so that one run without
 * the server's DATA_DIR does not leave an empty ./data behind. Without DATA_DIR and DATABASE_URL it
 * says on stderr which database it opened (stdout stays the command's output).
 */
export async function withStorage<T>(context: CliContext, work: (storage: Storage) => Promise<T>, options: { createsDatabase?: boolean } = {}): Promise<T> {
  const config = loadConfig(context.env);
  const implicit = !context.env.DATA_DIR && !context.env.DATABASE_URL;
  const missing = config.database.engine === "sqlite" && !existsSync(sqliteFileOf(config.dataDir));
  if (missing && !options.createsDatabase) throw new Error(noDatabase(config, implicit));
  if (implicit) {
    const how = missing ? "a new database: DATA_DIR and DATABASE_URL are not set, so the default ./data" : "DATA_DIR and DATABASE_URL are not set: the default ./data";
    print(context.stderr, `Database: ${databaseLabel(config)} (${how})`);
  }
  const storage = await createStorage(config);
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}

function noDatabase(config: Config, implicit: boolean): string {
  const file = sqliteFileOf(config.dataDir);
  return implicit
    ? `no database at ${file}: DATA_DIR and DATABASE_URL are not set, and the default ./data holds none. ` +
        "Run the command with the server's environment (DATA_DIR=<the server's data directory> or DATABASE_URL=postgres://...)."
    : `no database at ${file}: is DATA_DIR the server's data directory? (Only \`periscope user create\` makes a new one.)`;
}

/** Lower-cased and trimmed, as accounts store it; a UsageError naming the flag otherwise. */
export function emailArgument(value: string, flag = "email"): string {
  const parsed = newUserInput.shape.email.safeParse(value);
  if (!parsed.success) throw new UsageError(`--${flag}: "${value}" is not an email address`);
  return parsed.data;
}
