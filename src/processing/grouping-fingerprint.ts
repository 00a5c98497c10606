/**
 * Custom fingerprints (SDK `fingerprint`): literal entries plus `{{ variable }}` entries, resolved as
 * Sentry does (https://docs.sentry.io/concepts/data-management/event-grouping/fingerprint-rules/).
 * A variable must be the whole entry; names are case- and spacing-tolerant (`{{Type}}`, `{{ type }}`).
 */
import type { IndexedEvent } from "./types";
import { crashFrame, type DefaultGrouping } from "./grouping-components";

const VARIABLE = /^\{\{\s*([^}]*?)\s*\}\}$/;

/**
 * The components a fingerprint hashes, or null when default grouping applies: no fingerprint, or
 * exactly `["{{ default }}"]` (what SDKs send when nothing was customised).
 */
export function resolveFingerprint(event: IndexedEvent, byDefault: DefaultGrouping): FingerprintComponent[] | null {
  const fingerprint = event.fingerprint;
  if (!fingerprint || fingerprint.length === 0) return null;
  if (fingerprint.length === 1 && variableOf(fingerprint[0] ?? "") === "default") return null;
  return fingerprint.map((entry) => {
    const variable = variableOf(entry);
    if (variable === "default") return [variable, byDefault.strategy, ...byDefault.components];
    const value = variable === undefined ? undefined : valueOf(variable, event);
    return variable === undefined || value === undefined ? entry : [variable, value];
  });
}

/**
 * A literal entry stays a string; a resolved variable becomes `[name, value...]`, so in the hashed
 * JSON it can never equal a literal entry with the same text.
 */
export type FingerprintComponent = string | string[];

/** The variable's canonical name (`error.type` → `type`), keeping a tag name's own case. */
function variableOf(entry: string): string | undefined {
  const name = VARIABLE.exec(entry)?.[1];
  if (name === undefined) return undefined;
  const tag = /^tags\.(.+)$/i.exec(name);
  if (tag) return `tags.${tag[1]}`;
  const lower = name.toLowerCase();
  return (Object.hasOwn(ALIASES, lower) ? ALIASES[lower] : undefined) ?? lower;
}

const ALIASES: Record<string, string> = {
  "error.type": "type",
  "error.value": "value",
  "stack.function": "function",
  "stack.module": "module",
  "stack.abs_path": "path",
  "stack.package": "package",
};

/** Sentry's placeholders for missing values (`<no-transaction>`, ...); undefined for unknown variables. */
function valueOf(variable: string, event: IndexedEvent): string | undefined {
  const thrown = event.exception.at(-1);
  const frame = crashFrame(event);
  if (variable.startsWith("tags.")) {
    const name = variable.slice("tags.".length);
    return event.tags.find(([key]) => key === name)?.[1] ?? `<no-value-for-tag-${name}>`;
  }
  const values: Record<string, () => string | undefined> = {
    transaction: () => event.transaction,
    type: () => thrown?.type,
    value: () => thrown?.value,
    function: () => frame?.function,
    module: () => frame?.module,
    path: () => frame?.abs_path ?? frame?.filename,
    "stack.filename": () => frame?.filename,
    package: () => frame?.package,
    level: () => event.level,
    logger: () => event.logger,
    message: () => event.logentry?.formatted ?? thrown?.value,
  };
  const resolve = values[variable];
  if (!resolve) return undefined;
  return resolve() ?? `<no-${variable.replace(/^stack\./, "")}>`;
}
