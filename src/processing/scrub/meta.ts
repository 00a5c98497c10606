/** Reading a stored `_meta` tree (scrubber.ts) back as a list, for the event page and the docs' examples. */

export interface ScrubbedValue {
  /** Dotted path in the SDK's payload, e.g. `request.headers.Authorization` or `exception.values.0.stacktrace.frames.3.vars.secret_token`. */
  path: string;
  /** The rules that changed it, e.g. `@password:filter`. */
  rules: string[];
  /** What was done: replaced, removed, masked or hashed (part of the value when `partial`). */
  action: "replaced" | "removed" | "masked" | "hashed";
  partial: boolean;
}

const ACTIONS: Record<string, ScrubbedValue["action"]> = { s: "replaced", x: "removed", m: "masked", p: "hashed" };
const MAX_LISTED = 500;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Every value the tree says was scrubbed, in the tree's order; anything malformed (an SDK's own `_meta`) is skipped. */
export function scrubbedValues(meta: unknown): ScrubbedValue[] {
  const found: ScrubbedValue[] = [];
  const walk = (node: unknown, path: string[], depth: number) => {
    if (!isRecord(node) || depth > 64 || found.length >= MAX_LISTED) return;
    for (const [key, child] of Object.entries(node)) {
      if (key === "") {
        const remarks = isRecord(child) && Array.isArray(child.rem) ? child.rem.filter((remark): remark is unknown[] => Array.isArray(remark)) : [];
        if (remarks.length === 0) continue;
        const first = remarks[0]!;
        found.push({
          path: path.join("."),
          rules: [...new Set(remarks.map((remark) => String(remark[0])))],
          action: ACTIONS[String(first[1])] ?? "replaced",
          partial: remarks.some((remark) => remark.length >= 4),
        });
      } else walk(child, [...path, key], depth + 1);
    }
  };
  walk(meta, [], 0);
  return found;
}
