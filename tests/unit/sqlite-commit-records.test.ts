/**
 * The tag list the commit thread is handed as one string (commit-records.ts): every list comes back
 * as it went in, including tags that hold the separator itself.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { decodeTags, encodeTags } from "../../src/storage/sqlite/commit-records";

const lists: [string, [string, string][]][] = [
  ["no tags", []],
  ["one tag", [["level", "error"]]],
  ["derived and SDK tags", [["browser", "Chrome 120"], ["environment", "production"], ["level", "error"], ["url", "https://example.com/a?b=c&d"]]],
  ["NUL in a value", [["level", "error"], ["note", "a\u0000b"]]],
  ["NUL at the start of a key", [["\u0000key", "v"]]],
  ["JSON-looking and unicode text", [["[", "]"], ["emoji", "\u{1F600} ü"], ["quote", "\"\\"]]],
];

for (const [name, tags] of lists) {
  it(`round-trips ${name}`, () => {
    assert.deepEqual(decodeTags(encodeTags(tags)), tags);
  });
}

it("joins plain tags with NUL and sends tags that hold NUL as JSON behind one", () => {
  assert.equal(encodeTags([["level", "error"], ["os", "Linux"]]), "level\u0000error\u0000os\u0000Linux");
  assert.equal(encodeTags([["note", "a\u0000b"]]), '\u0000[["note","a\\u0000b"]]');
  assert.equal(encodeTags([]), "");
});
