/**
 * The values grouping hashes: cleaned frame identities and parameter-free messages. Everything here
 * aims at stability — the same code path must produce the same components across releases, line
 * shifts, browsers and bundler content hashes (docs/protocol.md §9).
 */
import type { GroupingStrategy, IndexedEvent, StackFrame } from "./types";

/** What default grouping hashes, and by which strategy. */
export interface DefaultGrouping {
  strategy: Exclude<GroupingStrategy, "fingerprint">;
  components: string[];
}

/** Frames the JS engine adds for its own built-ins: they differ between browsers, so they never count. */
const INTERNAL_FILENAMES = new Set(["<anonymous>", "native", "[native code]"]);
const BUILTIN_FUNCTION = /^(Array|Promise|Function|Object|Map|Set|String|JSON|Reflect|Generator)\.[\w$]+$/;

/** Names engines give functions they cannot name. */
const ANONYMOUS = new Set(["?", "<anonymous>", "anonymous", "<unknown>", "<lambda>"]);

export function isInternalFrame(frame: StackFrame): boolean {
  const file = frame.filename ?? frame.abs_path;
  if (file !== undefined) return INTERNAL_FILENAMES.has(file);
  return frame.function !== undefined && BUILTIN_FUNCTION.test(frame.function);
}

/**
 * Function names without what varies by build or call style: `async `/`new ` prefixes, V8's
 * `[as alias]` suffix, and the `Object.`/`Module.` receivers that CJS and ESM builds swap.
 */
export function cleanFunction(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const cleaned = name
    .trim()
    .replace(/^(async|new)\s+/, "")
    .replace(/\s+\[as [^\]]+\]$/, "")
    .replace(/^(Object|Module)\./, "");
  return cleaned === "" || ANONYMOUS.has(cleaned) ? undefined : cleaned;
}

/**
 * Lower-cased basename without query string, fragment or bundler content hash
 * (`main.3f2a1b9c.js`, `index-BqL5eD7n.js` → `main.js`, `index.js`): a hash segment has 8+ word
 * characters including a digit and is followed by another dot-separated part.
 */
export function cleanFilename(path: string): string | undefined {
  const withoutQuery = path.split(/[?#]/)[0] ?? "";
  const base = withoutQuery.split(/[\\/]/).filter((part) => part !== "").at(-1)?.toLowerCase();
  return base?.replace(/[.-](?=[a-z_]*\d)[a-z0-9_]{8,}(?=\.)/g, "");
}

/** One frame's identity: where (module, else cleaned filename) and what (cleaned function). */
export function frameKey(frame: StackFrame): string | undefined {
  const file = frame.filename ?? frame.abs_path;
  const where = frame.module !== undefined ? cleanFilename(frame.module) : file !== undefined ? cleanFilename(file) : undefined;
  const what = cleanFunction(frame.function ?? frame.raw_function);
  return where === undefined && what === undefined ? undefined : `${where ?? ""} ${what ?? ""}`;
}

/** Variable parts of messages, most specific first so e.g. a timestamp's digits are not numbers. */
const PARAMETERS: [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/gi, "<date>"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "<uuid>"],
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, "<email>"],
  [/\b\d{1,3}(?:\.\d{1,3}){3}\b/g, "<ip>"],
  [/\b(?:[0-9a-f]{1,4}:){3,7}[0-9a-f]{1,4}\b/gi, "<ip>"],
  [/\b0x[0-9a-f]+\b/gi, "<hex>"],
  [/\b(?=[a-f]*\d)[0-9a-f]{8,}\b/gi, "<hex>"],
  [/(?<![\w.])\d+\.\d+(?![\d.])/g, "<float>"],
  // Digits glued to a preceding letter are part of a name ("user42", "v2"); trailing units are not ("30s").
  [/(?<![A-Za-z_\d])\d+/g, "<int>"],
];

/** First line of a message with its parameters replaced by placeholders. */
export function parameterize(message: string): string {
  const firstLine = message.trim().split(/\r?\n/)[0] ?? "";
  return PARAMETERS.reduce((text, [pattern, placeholder]) => text.replace(pattern, placeholder), firstLine);
}

/** The message to group by: the template when params exist (it is the parameter-free form), else the text. */
export function groupingMessage(event: IndexedEvent): string | undefined {
  const entry = event.logentry;
  if (!entry) return undefined;
  return entry.params && entry.params.length > 0 ? entry.message : entry.formatted;
}

/** The frame Sentry calls the crash site: last in-app frame of the thrown exception, else its last frame. */
export function crashFrame(event: IndexedEvent): StackFrame | undefined {
  const frames = event.exception.at(-1)?.stacktrace?.frames ?? [];
  return frames.findLast((frame) => frame.in_app === true) ?? frames.at(-1);
}
