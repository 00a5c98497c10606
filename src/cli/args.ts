/**
 * A tiny typed flag parser for the admin commands: `--name value`, `--name=value`, boolean `--name`,
 * and `-h`/`--help` everywhere. Anything else — an unknown flag, a flag given twice, a missing value,
 * a stray positional argument — is a UsageError naming it (the command exits 2).
 */

/** A command line that cannot be right whatever the installation holds: exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export type FlagSpec = { type: "string" } | { type: "boolean" };
export type FlagSpecs = Record<string, FlagSpec>;

export type ParsedFlags<S extends FlagSpecs> = {
  [K in keyof S]?: S[K] extends { type: "string" } ? string : true;
};

export type Parsed<S extends FlagSpecs> = { help: true } | { help: false; flags: ParsedFlags<S> };

export function parseFlags<S extends FlagSpecs>(argv: readonly string[], specs: S): Parsed<S> {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") throw new UsageError(`unexpected argument: --`);
    if (!arg.startsWith("--")) {
      throw new UsageError(arg.startsWith("-") ? `unknown flag: ${arg}` : `unexpected argument: ${arg}`);
    }
    const equals = arg.indexOf("=");
    const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) throw new UsageError(`unknown flag: --${name}`);
    if (Object.hasOwn(flags, name)) throw new UsageError(`--${name} given more than once`);
    if (spec.type === "boolean") {
      if (equals !== -1) throw new UsageError(`--${name} takes no value`);
      flags[name] = true;
      continue;
    }
    let value: string | undefined;
    if (equals !== -1) {
      value = arg.slice(equals + 1);
    } else {
      const next = argv[i + 1];
      // A following flag is not a value: `--email --name x` forgot the email.
      if (next !== undefined && !next.startsWith("-")) {
        value = next;
        i++;
      }
    }
    if (value === undefined) throw new UsageError(`--${name} needs a value (write --${name}=<value> for one starting with '-')`);
    flags[name] = value;
  }
  return { help: false, flags: flags as ParsedFlags<S> };
}

/** The value of a string flag the command cannot do without. */
export function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`missing --${flag}`);
  if (value.trim() === "") throw new UsageError(`--${flag} must not be empty`);
  return value;
}
