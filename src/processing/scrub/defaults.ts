/**
 * The default data scrubbing rules: Sentry's default sensitive keys and Relay's `@common:filter`
 * value patterns (relay-pii `regexes.rs`), plus bearer tokens and `key=value` / `"key": value` pairs
 * inside strings (query strings, form bodies and JSON bodies the SDKs send as text). These are our
 * own, vetted expressions, run by V8: none backtracks worse than linearly in a value's length.
 * User-supplied expressions never run here; they go to RE2 (pii-config.ts).
 */

/**
 * Sentry's default sensitive keys (docs "Server-Side Data Scrubbing"; Relay's PASSWORD_KEY_REGEX),
 * with `session` and the cookie headers. A key containing any of these, in any case, has its value
 * replaced, whatever the value is.
 */
export const DEFAULT_SENSITIVE_KEYS: readonly string[] = [
  "password",
  "secret",
  "passwd",
  "api_key",
  "apikey",
  "api-key",
  "access_token",
  "auth",
  "credentials",
  "mysql_pwd",
  "stripetoken",
  "card[number]",
  "github_token",
  "privatekey",
  "private_key",
  "private-key",
  "token",
  "bearer",
  "session",
  "cookie",
];

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One case-insensitive alternation of `keys` as substrings; null when there are none. */
export function keyPatternSource(keys: readonly string[]): string | null {
  const parts = keys.map((key) => key.trim().toLowerCase()).filter((key) => key !== "");
  return parts.length === 0 ? null : parts.map(escapeRegExp).join("|");
}

/** A match inside a string: [start, end) is replaced. */
export interface Span {
  start: number;
  end: number;
}

/** A value pattern: finds the spans of a string to replace. `hint` is a cheap test that must pass first. */
export interface ValuePattern {
  /** Relay's rule id for the `_meta` remark, e.g. `@creditcard:filter`. */
  id: string;
  hint: (value: string) => boolean;
  find: (value: string) => Span[];
}

/** The spans of group `group` of every match of a global regex with indices (`dg` flags). */
function spansOf(regex: RegExp, value: string, group: number, accept?: (match: RegExpExecArray) => boolean): Span[] {
  const spans: Span[] = [];
  regex.lastIndex = 0;
  for (let match = regex.exec(value); match !== null; match = regex.exec(value)) {
    if (match[0] === "") {
      regex.lastIndex++;
      continue;
    }
    if (accept && !accept(match)) continue;
    const range = match.indices?.[group];
    if (range && range[1] > range[0]) spans.push({ start: range[0], end: range[1] });
  }
  return spans;
}

/** The Luhn checksum: card-like digit runs that fail it (order numbers, timestamps) are left alone. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

// Relay's CREDITCARD_REGEX: vendor prefixes, then 12 more digits with optional dashes or spaces.
const CREDIT_CARD = /\b((?:3[47]\d|4\d{3}|5[1-5]\d\d|65\d\d|6011)(?:[-\s]?\d){12})\b/dg;
// Relay's PEM_KEY_REGEX: the key body between the armour lines is replaced.
const PEM_KEY = /-----BEGIN[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----[\t ]*\r?\n?([\s\S]+?)\r?\n?-----END[A-Z ]+(?:PRIVATE|PUBLIC) KEY-----/dg;
// Relay's legacy URL_PASSWORD_RE (`@urlauth:legacy`): the password of `scheme://user:password@`.
const URL_AUTH = /\b(?:[a-z0-9]+:)?\/\/[a-zA-Z0-9%_.-]+:([a-zA-Z0-9%_.-]+)@/dgi;
// Relay's US_SSN_REGEX.
const US_SSN = /\b([0-9]{3}-[0-9]{2}-[0-9]{4})\b/dg;
// RFC 6750 token68 after the scheme name.
const BEARER = /\bbearer\s+([A-Za-z0-9\-._~+/]+=*)/dgi;

export const DEFAULT_VALUE_PATTERNS: readonly ValuePattern[] = [
  {
    id: "@creditcard:filter",
    hint: (value) => value.length >= 13,
    find: (value) => spansOf(CREDIT_CARD, value, 1, (match) => luhnValid((match[1] ?? "").replace(/[-\s]/g, ""))),
  },
  { id: "@pemkey:filter", hint: (value) => value.includes("-----BEGIN"), find: (value) => spansOf(PEM_KEY, value, 1) },
  { id: "@urlauth:legacy", hint: (value) => value.includes("//") && value.includes("@"), find: (value) => spansOf(URL_AUTH, value, 1) },
  { id: "@usssn:filter", hint: (value) => value.length >= 11 && value.includes("-"), find: (value) => spansOf(US_SSN, value, 1) },
  { id: "@bearer:filter", hint: (value) => /bearer/i.test(value), find: (value) => spansOf(BEARER, value, 1) },
];

/**
 * `name=value` (query strings, form bodies, cookie headers, log lines) and `"name": value` (JSON
 * sent as text) where `isSensitive(name)`: the value is replaced. Names are found first and tested
 * apart, so each expression is linear in the value's length whatever the key list holds.
 */
export function pairPattern(isSensitive: (name: string) => boolean, id: string): ValuePattern {
  const quoted = /"([^"\\]{1,128})"\s*:\s*("(?:[^"\\]|\\.)*"|[-+\d.eE]+|true|false)/dg;
  const sensitiveName = (match: RegExpExecArray) => isSensitive(match[1] ?? "");
  return {
    id,
    hint: (value) => value.includes("=") || value.includes('":'),
    find: (value) => {
      const spans = assignedSpans(value, isSensitive);
      if (value.includes('":')) spans.push(...spansOf(quoted, value, 2, sensitiveName));
      return spans.map((span) =>
        // A quoted JSON value keeps its quotes, so the text stays valid JSON.
        value[span.start] === '"' && span.end - span.start >= 2 ? { start: span.start + 1, end: span.end - 1 } : span,
      );
    },
  };
}

/** Name characters of `name=value`: letters, digits, `_`, `.`, `-`, `[`, `]`. */
function isNameChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 46 || code === 45 || code === 91 || code === 93;
}

/** Where a value ends: `&`, `;`, `,`, quotes or white space. */
function endsValue(code: number): boolean {
  return code === 38 || code === 59 || code === 44 || code === 39 || code === 34 || code <= 32;
}

/**
 * The values of `name=value` pairs whose name is sensitive, found from each `=` (a scan, not a
 * regex: source lines full of `=` made the expression the scrubber's largest cost).
 */
function assignedSpans(value: string, isSensitive: (name: string) => boolean): Span[] {
  const spans: Span[] = [];
  for (let equals = value.indexOf("="); equals !== -1; equals = value.indexOf("=", equals + 1)) {
    let start = equals;
    while (start > 0 && equals - start < 128 && isNameChar(value.charCodeAt(start - 1))) start--;
    if (start === equals || !isSensitive(value.slice(start, equals))) continue;
    let end = equals + 1;
    while (end < value.length && !endsValue(value.charCodeAt(end))) end++;
    if (end > equals + 1) spans.push({ start: equals + 1, end });
  }
  return spans;
}
