/**
 * Every path that code and docs point a reader at must exist: `docs/…md`, `src/…ts`, `bench/…`,
 * and the relative links between Markdown files. Comments once cited two documents that were never
 * in the repository; this keeps that from happening again.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";

const root = path.resolve(import.meta.dirname, "..", "..");

const SCANNED = ["src", "app", "components", "tests", "bench", "scripts", "docs", "server.ts", "README.md"];
/** Not ours to keep current: dependencies, build output, captured SDK traffic; and this file's bogus examples. */
const SKIPPED = new Set(["node_modules", ".next", ".git", path.join("tests", "fixtures"), path.join("tests", "unit", "doc-references.test.ts")]);
const TEXT = /\.(ts|tsx|mjs|js|md|sql|json|jsonl|css)$/;

/**
 * A repo path as prose and comments write it: a top-level folder, then path characters. Preceded by
 * neither a word character nor `/`, `.` or `-`, so `relay-server/src/…`, `../src` and URLs do not match.
 */
const REPO_PATH = /(?<![\w/.@-])(?:docs|src|app|components|tests|bench|scripts)\/[\w.\-[\]/]*/g;
/** A Markdown link's target: `[text](target)`. */
const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;

function textFiles(entry: string): string[] {
  const full = path.join(root, entry);
  if (SKIPPED.has(entry) || !existsSync(full)) return [];
  if (TEXT.test(entry) && !readdirSafe(full)) return [entry];
  return (readdirSafe(full) ?? []).flatMap((name) => textFiles(path.join(entry, name)));
}

function readdirSafe(full: string): string[] | null {
  try {
    return readdirSync(full);
  } catch {
    return null;
  }
}

/** Trailing punctuation of the sentence the path ends, and a Markdown link text's `]`, are not part of it. */
function trimmed(reference: string): string {
  const stripped = reference.replace(/[.,:;]+$/, "");
  const unbalanced = stripped.split("]").length > stripped.split("[").length;
  return unbalanced ? trimmed(stripped.slice(0, -1)) : stripped;
}

/** `docs/adr/0002` names ADR 0002 by its number: an entry of that folder starting `0002-`. */
function exists(reference: string): boolean {
  const full = path.join(root, reference);
  if (existsSync(full)) return true;
  return (readdirSafe(path.dirname(full)) ?? []).some((name) => name.startsWith(`${path.basename(full)}-`));
}

/** In code only comments point readers at files; string literals are data (snippets, fixture names). */
const COMMENT = /\/\*[\s\S]*?\*\/|\/\/[^\n]*|^--[^\n]*/gm;
const CODE = /\.(ts|tsx|mjs|js|sql)$/;
const readable = (file: string, text: string) => (CODE.test(file) ? (text.match(COMMENT) ?? []).join("\n") : text);

/** Paths written with a placeholder or wildcard name a pattern, not one file. */
function isPattern(reference: string, next: string): boolean {
  return reference.endsWith("-") || /^[*<{$]/.test(next);
}

function brokenReferences(files: string[], read: (file: string) => string = (file) => readFileSync(path.join(root, file), "utf8")): string[] {
  const broken: string[] = [];
  for (const file of files) {
    const text = readable(file, read(file));
    for (const match of text.matchAll(REPO_PATH)) {
      const reference = trimmed(match[0]);
      const next = text[match.index + match[0].length] ?? "";
      if (isPattern(reference, next)) continue;
      if (!exists(reference)) broken.push(`${file}: ${reference}`);
    }
    if (!file.endsWith(".md")) continue;
    for (const match of text.matchAll(MARKDOWN_LINK)) {
      const target = (match[1] ?? "").split("#")[0] ?? "";
      if (target === "" || /^[a-z]+:/i.test(target)) continue;
      if (!existsSync(path.join(root, path.dirname(file), decodeURI(target)))) broken.push(`${file}: link ${target}`);
    }
  }
  return broken;
}

describe("doc references", () => {
  it("every repo path named in code and docs exists", () => {
    const files = SCANNED.flatMap(textFiles);
    assert.ok(files.length > 300, `scanned only ${files.length} files`);
    assert.deepEqual(brokenReferences(files), []);
  });

  it("reports a path that does not exist, and a broken Markdown link", () => {
    const texts: Record<string, string> = {
      "src/example.ts": "/** See docs/no-such-file.md §2 and docs/protocol.md §4. */",
      "docs/example.md": "See [protocol](protocol.md) and [gone](gone.md), or `src/items/*.ts`.",
    };
    assert.deepEqual(
      brokenReferences(Object.keys(texts), (file) => texts[file] ?? ""),
      ["src/example.ts: docs/no-such-file.md", "docs/example.md: link gone.md"],
    );
  });
});
