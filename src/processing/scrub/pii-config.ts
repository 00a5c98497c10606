/**
 * Advanced scrubbing rules in Relay's PII config format (`relayPiiConfig`):
 *
 *     {"rules": {"api-key": {"type": "pattern", "pattern": "sk_[a-z0-9]+", "redaction": {"method": "replace", "text": "[key]"}}},
 *      "applications": {"$http.headers.x-api-key": ["@anything:remove"], "extra.*": ["api-key", "@creditcard:mask"]}}
 *
 * Patterns from users run on RE2 (the `re2` package): its matching time is linear in the text, so
 * no pattern (`(a+)+$` included) can stall ingest. JavaScript's engine backtracks and cannot be
 * bounded in time on the thread that answers SDKs.
 */
import { z } from "zod";
import RE2 from "re2";
import { DEFAULT_SENSITIVE_KEYS, DEFAULT_VALUE_PATTERNS, keyPatternSource, type ValuePattern } from "./defaults";
import { parseSelector, SelectorError, type Selector } from "./selectors";

export type Redaction =
  | { method: "replace"; text: string }
  | { method: "remove" }
  | { method: "mask" }
  | { method: "hash" };

/** A rule as the scrubber runs it. `id` is what the `_meta` remark names. */
export type CompiledRule =
  | { kind: "anything"; id: string; redaction: Redaction }
  | { kind: "key"; id: string; redaction: Redaction; test: (key: string) => boolean }
  | { kind: "value"; id: string; redaction: Redaction; pattern: ValuePattern }
  | { kind: "re2"; id: string; redaction: Redaction; regex: RE2; groups: number[] | null };

export interface Application {
  selector: Selector;
  rules: CompiledRule[];
}

const MAX_RULES = 100;
const MAX_APPLICATIONS = 100;
const MAX_PATTERN_LENGTH = 1_000;

const redactionSchema = z
  .discriminatedUnion("method", [
    z.object({ method: z.literal("replace"), text: z.string().max(200).optional() }),
    z.object({ method: z.literal("remove") }),
    z.object({ method: z.literal("mask") }),
    z.object({ method: z.literal("hash") }),
    z.object({ method: z.literal("default") }),
  ])
  .optional();

const BUILTIN_TYPES = ["anything", "creditcard", "pemkey", "urlauth", "usssn", "bearer", "password", "ip", "email", "uuid", "mac", "imei"] as const;

const ruleSchema = z.union([
  z.object({
    type: z.literal("pattern"),
    pattern: z.string().min(1).max(MAX_PATTERN_LENGTH),
    replaceGroups: z.array(z.number().int().min(0).max(99)).max(10).optional(),
    redaction: redactionSchema,
  }),
  z.object({ type: z.literal("redact_pair"), keyPattern: z.string().min(1).max(MAX_PATTERN_LENGTH), redaction: redactionSchema }),
  z.object({ type: z.enum(BUILTIN_TYPES), redaction: redactionSchema }),
]);

export const piiConfigSchema = z.object({
  rules: z
    .record(z.string().min(1).max(64), ruleSchema)
    .refine((rules) => Object.keys(rules).length <= MAX_RULES, `at most ${MAX_RULES} rules`)
    .optional(),
  applications: z
    .record(z.string().min(1).max(500), z.array(z.string().min(1).max(80)).max(MAX_RULES))
    .refine((applications) => Object.keys(applications).length <= MAX_APPLICATIONS, `at most ${MAX_APPLICATIONS} applications`)
    .optional(),
});

export class PiiConfigError extends Error {}

type RedactionInput = z.infer<typeof redactionSchema>;

const FILTERED = "[Filtered]";

function redactionOf(input: RedactionInput, fallback: Redaction): Redaction {
  if (!input || input.method === "default") return fallback;
  if (input.method === "replace") return { method: "replace", text: input.text ?? FILTERED };
  return input;
}

// Relay's builtin value patterns that are not among the defaults. Ours, vetted, run by V8.
const EXTRA_PATTERNS: Record<string, RegExp> = {
  ip: /\b(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\b/dg,
  email: /\b[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[a-zA-Z0-9-]{1,63}(?:\.[a-zA-Z0-9-]{1,63}){0,10}\b/dg,
  uuid: /\b[a-fA-F0-9]{8}-?[a-fA-F0-9]{4}-?[a-fA-F0-9]{4}-?[a-fA-F0-9]{4}-?[a-fA-F0-9]{12}\b/dg,
  mac: /\b(?:[0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}\b/dg,
  imei: /\b\d{2}-?\d{6}-?\d{6}-?\d{1,2}\b/dg,
};

function patternOf(type: string, id: string): ValuePattern | null {
  const builtin = DEFAULT_VALUE_PATTERNS.find((pattern) => pattern.id.startsWith(`@${type}:`));
  if (builtin) return Object.assign({}, builtin, { id });
  const regex = EXTRA_PATTERNS[type];
  if (!regex) return null;
  return {
    id,
    hint: () => true,
    find: (value) => {
      const spans = [];
      regex.lastIndex = 0;
      for (let match = regex.exec(value); match !== null; match = regex.exec(value)) spans.push({ start: match.index, end: match.index + match[0].length });
      return spans;
    },
  };
}

const defaultKeyRegex = new RegExp(keyPatternSource(DEFAULT_SENSITIVE_KEYS) ?? "(?!)", "i");

function compileRule(id: string, type: string, redaction: Redaction, extra: { pattern?: string; keyPattern?: string; groups?: number[] }): CompiledRule {
  if (type === "anything") return { kind: "anything", id, redaction };
  if (type === "password") return { kind: "key", id, redaction, test: (key) => defaultKeyRegex.test(key) };
  if (type === "pattern" || type === "redact_pair") {
    const source = (type === "pattern" ? extra.pattern : extra.keyPattern) ?? "";
    let regex: RE2;
    try {
      regex = new RE2(source, type === "pattern" ? "dg" : "i");
    } catch (error) {
      throw new PiiConfigError(`rule "${id}": invalid pattern: ${(error as Error).message}`);
    }
    if (type === "redact_pair") return { kind: "key", id, redaction, test: (key) => regex.test(key) };
    return { kind: "re2", id, redaction, regex, groups: extra.groups ?? null };
  }
  const pattern = patternOf(type, id);
  if (!pattern) throw new PiiConfigError(`rule "${id}": unknown type "${type}"`);
  return { kind: "value", id, redaction, pattern };
}

/** `@type` or `@type:method`, Relay's builtin rule names. */
function builtinRule(name: string): CompiledRule[] {
  const [type = "", method = ""] = name.slice(1).split(":");
  if (type === "common") {
    return ["creditcard", "pemkey", "urlauth", "usssn", "password", "bearer"].flatMap((part) => builtinRule(`@${part}:${method || "filter"}`));
  }
  if (!(BUILTIN_TYPES as readonly string[]).includes(type)) throw new PiiConfigError(`unknown rule "${name}"`);
  const redaction: Redaction | null =
    method === "" || method === "replace" || method === "filter"
      ? { method: "replace", text: method === "filter" || type === "anything" ? FILTERED : `[${type}]` }
      : method === "remove" || method === "mask" || method === "hash"
        ? { method }
        : null;
  if (!redaction) throw new PiiConfigError(`unknown rule "${name}"`);
  return [compileRule(name, type, redaction, {})];
}

/** Parses and compiles one config's JSON text; throws PiiConfigError naming the problem. */
export function compilePiiConfig(text: string): Application[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new PiiConfigError(`relayPiiConfig is not JSON: ${(error as Error).message}`);
  }
  const parsed = piiConfigSchema.safeParse(json);
  if (!parsed.success) {
    throw new PiiConfigError(`relayPiiConfig: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ")}`);
  }
  const rules = parsed.data.rules ?? {};
  const compiled = new Map<string, CompiledRule>();
  for (const [id, rule] of Object.entries(rules)) {
    const redaction = redactionOf(rule.redaction, { method: "replace", text: FILTERED });
    compiled.set(
      id,
      compileRule(id, rule.type, redaction, {
        pattern: "pattern" in rule ? rule.pattern : undefined,
        keyPattern: "keyPattern" in rule ? rule.keyPattern : undefined,
        groups: "replaceGroups" in rule ? rule.replaceGroups : undefined,
      }),
    );
  }
  const applications: Application[] = [];
  for (const [selectorText, ruleIds] of Object.entries(parsed.data.applications ?? {})) {
    let selector: Selector;
    try {
      selector = parseSelector(selectorText);
    } catch (error) {
      if (error instanceof SelectorError) throw new PiiConfigError(error.message);
      throw error;
    }
    const applied = ruleIds.flatMap((ruleId) => {
      if (ruleId.startsWith("@")) return builtinRule(ruleId);
      const rule = compiled.get(ruleId);
      if (!rule) throw new PiiConfigError(`application "${selectorText}" names unknown rule "${ruleId}"`);
      return [rule];
    });
    applications.push({ selector, rules: applied });
  }
  return applications;
}
