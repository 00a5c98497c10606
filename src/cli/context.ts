/**
 * What every admin command shares: its streams, the storage the server uses (chosen from the same
 * DATA_DIR / DATABASE_URL environment), and checking an email address the way the services do.
 */
import { loadConfig } from "../config";
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

/** Opens the installation's storage (migrating it as the server would), runs `work`, closes it. */
export async function withStorage<T>(context: CliContext, work: (storage: Storage) => Promise<T>): Promise<T> {
  const storage = await createStorage(loadConfig(context.env));
  try {
    return await work(storage);
  } finally {
    await storage.close();
  }
}

/** Lower-cased and trimmed, as accounts store it; a UsageError naming the flag otherwise. */
export function emailArgument(value: string, flag = "email"): string {
  const parsed = newUserInput.shape.email.safeParse(value);
  if (!parsed.success) throw new UsageError(`--${flag}: "${value}" is not an email address`);
  return parsed.data;
}
