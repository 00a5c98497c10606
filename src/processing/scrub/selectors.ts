/**
 * Relay's selector language, the part advanced scrubbing rules need: paths of keys (`extra.foo`,
 * `$http.headers.x-api-key`), `*` (one key), `**` (any number of keys), quoted keys (`'a.b'`), value
 * types (`$string`, `$number`, `$boolean`, `$array`, `$object`), the event's parts by type
 * (`$http`, `$user`, `$frame`, `$error`, `$breadcrumb`, `$span`, …), and `!`, `&&`, `||`, `( )`.
 * Literal keys match in any case (header names arrive in every case). A path starts at the event's
 * root unless it starts with `**` or a part that can occur at any depth (`$frame`, `$stacktrace`).
 */

export type ValueKind = "string" | "number" | "boolean" | "array" | "object" | "null";

type Segment = { kind: "key"; key: string } | { kind: "one" } | { kind: "deep" };

export type Selector =
  | { kind: "path"; alternatives: Segment[][] }
  | { kind: "type"; type: ValueKind }
  | { kind: "not"; inner: Selector }
  | { kind: "and"; parts: Selector[] }
  | { kind: "or"; parts: Selector[] };

export class SelectorError extends Error {}

const VALUE_TYPES: Record<string, ValueKind> = {
  $string: "string",
  $number: "number",
  $boolean: "boolean",
  $array: "array",
  $object: "object",
  $null: "null",
};

const key = (name: string): Segment => ({ kind: "key", key: name });
const ONE: Segment = { kind: "one" };
const DEEP: Segment = { kind: "deep" };

/** Where each part of an event lives in the SDK's JSON; several places where SDKs differ. */
const PARTS: Record<string, Segment[][]> = {
  $event: [[]],
  $http: [[key("request")]],
  $request: [[key("request")]],
  $user: [[key("user")]],
  $sdk: [[key("sdk")]],
  $logentry: [[key("logentry")], [key("message")]],
  $message: [[key("logentry")], [key("message")]],
  $contexts: [[key("contexts")]],
  $context: [[key("contexts"), ONE]],
  $error: [[key("exception"), key("values"), ONE], [key("exception"), ONE]],
  $exception: [[key("exception"), key("values"), ONE], [key("exception"), ONE]],
  $stacktrace: [[DEEP, key("stacktrace")]],
  $frame: [[DEEP, key("frames"), ONE]],
  $breadcrumb: [[key("breadcrumbs"), key("values"), ONE], [key("breadcrumbs"), ONE]],
  $thread: [[key("threads"), key("values"), ONE], [key("threads"), ONE]],
  $span: [[key("spans"), ONE]],
  $extra: [[key("extra")]],
  $tags: [[key("tags")]],
};

/** Parses a selector; throws SelectorError naming the problem. */
export function parseSelector(text: string): Selector {
  const tokens = tokenize(text);
  let position = 0;
  const peek = () => tokens[position];
  const next = () => tokens[position++];

  function parseOr(): Selector {
    const parts = [parseAnd()];
    while (peek() === "||") {
      next();
      parts.push(parseAnd());
    }
    return parts.length === 1 ? parts[0]! : { kind: "or", parts };
  }
  function parseAnd(): Selector {
    const parts = [parseNot()];
    while (peek() === "&&") {
      next();
      parts.push(parseNot());
    }
    return parts.length === 1 ? parts[0]! : { kind: "and", parts };
  }
  function parseNot(): Selector {
    if (peek() === "!") {
      next();
      return { kind: "not", inner: parseNot() };
    }
    if (peek() === "(") {
      next();
      const inner = parseOr();
      if (next() !== ")") throw new SelectorError(`selector "${text}": missing ")"`);
      return inner;
    }
    const token = next();
    if (token === undefined || ["||", "&&", ")", "!"].includes(token)) throw new SelectorError(`selector "${text}": expected a path`);
    return parsePath(token, text);
  }

  const selector = parseOr();
  if (position !== tokens.length) throw new SelectorError(`selector "${text}": unexpected "${tokens[position]}"`);
  return selector;
}

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    if (/\s/.test(char)) {
      i++;
    } else if (text.startsWith("||", i) || text.startsWith("&&", i)) {
      tokens.push(text.slice(i, i + 2));
      i += 2;
    } else if (char === "|" || char === "&") {
      // Relay accepts single `|` and `&` as well.
      tokens.push(char + char);
      i++;
    } else if (char === "!" || char === "(" || char === ")") {
      tokens.push(char);
      i++;
    } else {
      let path = "";
      while (i < text.length && !/[\s|&!()]/.test(text[i]!)) {
        if (text[i] === "'") {
          const end = text.indexOf("'", i + 1);
          if (end < 0) throw new SelectorError(`selector "${text}": unterminated quote`);
          path += text.slice(i, end + 1);
          i = end + 1;
        } else {
          path += text[i];
          i++;
        }
      }
      tokens.push(path);
    }
  }
  if (tokens.length === 0) throw new SelectorError("empty selector");
  return tokens;
}

function splitPath(token: string, text: string): string[] {
  const parts: string[] = [];
  let current = "";
  for (let i = 0; i < token.length; i++) {
    const char = token[i]!;
    if (char === "'") {
      const end = token.indexOf("'", i + 1);
      current += token.slice(i, end + 1);
      i = end;
    } else if (char === ".") {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  if (parts.some((part) => part === "")) throw new SelectorError(`selector "${text}": empty path segment`);
  return parts;
}

function parsePath(token: string, text: string): Selector {
  const parts = splitPath(token, text);
  const last = parts[parts.length - 1]!;
  const valueType = VALUE_TYPES[last.toLowerCase()];
  if (valueType !== undefined && parts.length === 1) return { kind: "type", type: valueType };
  const pathParts = valueType !== undefined ? parts.slice(0, -1) : parts;
  let alternatives: Segment[][] = [[]];
  pathParts.forEach((part, index) => {
    let options: Segment[][];
    if (part === "**") options = [[DEEP]];
    else if (part === "*") options = [[ONE]];
    else if (part.startsWith("'") && part.endsWith("'") && part.length >= 2) options = [[key(part.slice(1, -1).toLowerCase())]];
    else if (part.startsWith("$")) {
      const known = PARTS[part.toLowerCase()];
      if (!known) throw new SelectorError(`selector "${text}": unknown type "${part}"`);
      // A part found anywhere (its first segment is **) keeps that only when it starts the path.
      options = index === 0 ? known : known.map((option) => (option[0]?.kind === "deep" ? option.slice(1) : option));
    } else options = [[key(part.toLowerCase())]];
    alternatives = alternatives.flatMap((prefix) => options.map((option) => [...prefix, ...option]));
  });
  const path: Selector = { kind: "path", alternatives };
  return valueType === undefined ? path : { kind: "and", parts: [path, { kind: "type", type: valueType }] };
}

/** Whether `selector` picks the value at `path` (keys, lower-cased) whose kind is `kind`. */
export function selects(selector: Selector, path: readonly string[], kind: ValueKind): boolean {
  switch (selector.kind) {
    case "type":
      return selector.type === kind;
    case "not":
      return !selects(selector.inner, path, kind);
    case "and":
      return selector.parts.every((part) => selects(part, path, kind));
    case "or":
      return selector.parts.some((part) => selects(part, path, kind));
    case "path":
      return selector.alternatives.some((segments) => matchSegments(segments, 0, path, 0));
  }
}

function matchSegments(segments: Segment[], s: number, path: readonly string[], p: number): boolean {
  if (s === segments.length) return p === path.length;
  const segment = segments[s]!;
  if (segment.kind === "deep") {
    for (let skip = p; skip <= path.length; skip++) if (matchSegments(segments, s + 1, path, skip)) return true;
    return false;
  }
  if (p === path.length) return false;
  if (segment.kind === "key" && segment.key !== path[p]) return false;
  return matchSegments(segments, s + 1, path, p + 1);
}
