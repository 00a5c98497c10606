/**
 * The syntax of Sentry's issue search, by hand-written recursive descent (ADR 0020):
 *
 *   query   := or?
 *   or      := and ("OR" and)*
 *   and     := term ("AND"? term)*           -- juxtaposition is AND; AND binds tighter than OR
 *   term    := "(" or ")" | filter | text
 *   filter  := "!"? key ":" (list | op? scalar)
 *   list    := "[" scalar ("," scalar)* "]"
 *   op      := ">=" | "<=" | ">" | "<" | "="
 *   scalar  := '"' chars '"' | bare             -- `\"` inside quotes is a quote
 *   text    := '"' chars '"' | bare
 *
 * A bare word ends at whitespace (and at `)` when a group is open). Keys are `[A-Za-z_][\w.\-]*`,
 * or `tags[<key>]`. Meaning (which keys exist, what values they take) is issue-search-terms.ts's.
 */
import { AppError } from "../errors";

export type SyntaxNode =
  | { kind: "and"; nodes: SyntaxNode[] }
  | { kind: "or"; nodes: SyntaxNode[] }
  | SyntaxFilter
  | { kind: "text"; text: string; quoted: boolean };

export interface SyntaxScalar {
  value: string;
  quoted: boolean;
}

export interface SyntaxFilter {
  kind: "filter";
  key: string;
  negated: boolean;
  op: "=" | ">" | ">=" | "<" | "<=";
  values: SyntaxScalar[];
  list: boolean;
  /** The filter as typed, for error messages. */
  token: string;
}

export const MAX_QUERY_CHARS = 2000;
const MAX_DEPTH = 20;
const KEY = /[A-Za-z_][\w.-]*(?:\[[^\]\s]+\])?/y;

export function searchError(message: string): AppError {
  return new AppError("bad_request", `invalid query: ${message}`);
}

/** Parses the syntax; throws AppError("bad_request") naming the offending token. */
export function parseSearchSyntax(query: string): SyntaxNode | null {
  if (query.length > MAX_QUERY_CHARS) throw searchError(`longer than ${MAX_QUERY_CHARS} characters`);
  return new Parser(query).query();
}

class Parser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly src: string) {}

  query(): SyntaxNode | null {
    this.space();
    if (this.atEnd()) return null;
    const tree = this.or();
    this.space();
    if (this.peek() === ")") throw searchError(`unmatched ")" at position ${this.pos + 1}`);
    return tree;
  }

  private or(): SyntaxNode {
    const nodes = [this.and()];
    for (;;) {
      this.space();
      if (!this.keyword("OR")) break;
      this.space();
      if (this.atEnd() || this.peek() === ")" || this.isKeywordAhead("OR") || this.isKeywordAhead("AND")) {
        throw searchError(`"OR" must be followed by a search term (position ${this.pos + 1})`);
      }
      nodes.push(this.and());
    }
    return nodes.length === 1 ? nodes[0]! : { kind: "or", nodes };
  }

  private and(): SyntaxNode {
    const nodes: SyntaxNode[] = [];
    for (;;) {
      this.space();
      if (this.atEnd() || (this.peek() === ")" && this.depth > 0) || this.isKeywordAhead("OR")) break;
      const at = this.pos + 1;
      if (this.keyword("AND")) {
        this.space();
        if (nodes.length === 0) throw searchError(`"AND" must follow a search term (position ${at})`);
        if (this.atEnd() || this.peek() === ")" || this.isKeywordAhead("OR") || this.isKeywordAhead("AND")) {
          throw searchError(`"AND" must be followed by a search term (position ${this.pos + 1})`);
        }
        continue;
      }
      nodes.push(this.term());
    }
    if (nodes.length === 0) {
      const at = this.atEnd() ? "at the end" : `at position ${this.pos + 1}`;
      throw searchError(`expected a search term ${at}`);
    }
    return nodes.length === 1 ? nodes[0]! : { kind: "and", nodes };
  }

  private term(): SyntaxNode {
    if (this.peek() === ")") throw searchError(`unmatched ")" at position ${this.pos + 1}`);
    if (this.peek() === "(") {
      const open = this.pos;
      this.pos++;
      if (++this.depth > MAX_DEPTH) throw searchError(`parentheses nested deeper than ${MAX_DEPTH}`);
      this.space();
      if (this.peek() === ")") throw searchError(`empty parentheses at position ${open + 1}`);
      const inner = this.or();
      this.space();
      if (this.peek() !== ")") throw searchError(`"(" at position ${open + 1} is never closed`);
      this.pos++;
      this.depth--;
      return inner;
    }
    const start = this.pos;
    const negated = this.peek() === "!";
    if (negated) this.pos++;
    KEY.lastIndex = this.pos;
    const key = KEY.exec(this.src);
    if (key && this.src[this.pos + key[0].length] === ":") {
      this.pos += key[0].length + 1;
      return this.filter(start, negated, key[0]);
    }
    if (negated) {
      const word = this.bare(start);
      throw searchError(`"!" negates a key:value filter, not free text: ${word}`);
    }
    if (this.peek() === '"') {
      const text = this.quoted();
      return { kind: "text", text, quoted: true };
    }
    return { kind: "text", text: this.bare(start), quoted: false };
  }

  private filter(start: number, negated: boolean, key: string): SyntaxFilter {
    const token = () => this.src.slice(start, this.pos);
    if (this.peek() === "[") {
      this.pos++;
      const values: SyntaxScalar[] = [];
      for (;;) {
        this.space();
        if (this.atEnd()) throw searchError(`list not closed with "]" in ${token()}`);
        if (this.peek() === "]" || this.peek() === ",") throw searchError(`empty value in list in ${this.listToken(start)}`);
        values.push(this.scalar(/[\s,\]]/));
        this.space();
        if (this.peek() === ",") {
          this.pos++;
          continue;
        }
        if (this.peek() === "]") {
          this.pos++;
          break;
        }
        throw searchError(`list not closed with "]" in ${token()}`);
      }
      return { kind: "filter", key, negated, op: "=", values, list: true, token: token() };
    }
    const op = this.operator();
    if (this.atEnd() || /\s/.test(this.peek()) || (this.peek() === ")" && this.depth > 0)) {
      throw searchError(`missing value after ${token()}`);
    }
    const value = this.scalar(this.depth > 0 ? /[\s)]/ : /\s/);
    return { kind: "filter", key, negated, op, values: [value], list: false, token: token() };
  }

  private operator(): SyntaxFilter["op"] {
    for (const op of [">=", "<=", ">", "<", "="] as const) {
      if (this.src.startsWith(op, this.pos)) {
        this.pos += op.length;
        return op;
      }
    }
    return "=";
  }

  private scalar(stop: RegExp): SyntaxScalar {
    if (this.peek() === '"') return { value: this.quoted(), quoted: true };
    const begin = this.pos;
    while (!this.atEnd() && !stop.test(this.peek())) this.pos++;
    return { value: this.src.slice(begin, this.pos), quoted: false };
  }

  private quoted(): string {
    const open = this.pos;
    this.pos++;
    let out = "";
    while (!this.atEnd()) {
      const c = this.src[this.pos]!;
      if (c === "\\" && this.src[this.pos + 1] === '"') {
        out += '"';
        this.pos += 2;
      } else if (c === '"') {
        this.pos++;
        if (!this.atEnd() && !/[\s),\]]/.test(this.peek())) {
          throw searchError(`unexpected "${this.peek()}" after the quoted value at position ${open + 1}`);
        }
        return out;
      } else {
        out += c;
        this.pos++;
      }
    }
    throw searchError(`quote at position ${open + 1} is never closed`);
  }

  /** A bare word from `start`: up to whitespace, or `)` while a group is open. */
  private bare(start: number): string {
    this.pos = start;
    while (!this.atEnd() && !/\s/.test(this.peek()) && !(this.depth > 0 && this.peek() === ")")) this.pos++;
    return this.src.slice(start, this.pos);
  }

  private listToken(start: number): string {
    const close = this.src.indexOf("]", this.pos);
    return this.src.slice(start, close === -1 ? this.src.length : close + 1);
  }

  private keyword(word: "AND" | "OR"): boolean {
    if (!this.isKeywordAhead(word)) return false;
    this.pos += word.length;
    return true;
  }

  /** `AND`/`OR` in capitals, standing alone (followed by whitespace, `(` or the end). */
  private isKeywordAhead(word: "AND" | "OR"): boolean {
    if (!this.src.startsWith(word, this.pos)) return false;
    const next = this.src[this.pos + word.length];
    return next === undefined || /\s/.test(next) || next === "(";
  }

  private space(): void {
    while (!this.atEnd() && /\s/.test(this.peek())) this.pos++;
  }

  private peek(): string {
    return this.src[this.pos] ?? "";
  }

  private atEnd(): boolean {
    return this.pos >= this.src.length;
  }
}
