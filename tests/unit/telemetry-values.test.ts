/**
 * Ids as telemetry items carry them (trace, span, session ids): the lower-case hex form passes as it
 * is, other spellings of the same id are normalised, anything else is refused.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { hexIdOf } from "../../src/items/telemetry-values";

it("keeps lower-case hex ids of the right length as they are", () => {
  assert.equal(hexIdOf("847eecaa1c13c6c2", 16), "847eecaa1c13c6c2");
  assert.equal(hexIdOf("5e67b68b809d448280d835075c8e8eca", 32), "5e67b68b809d448280d835075c8e8eca");
});

it("lower-cases, trims and drops the dashes of a UUID", () => {
  assert.equal(hexIdOf(" 847EECAA1C13C6C2 ", 16), "847eecaa1c13c6c2");
  assert.equal(hexIdOf("5E67B68B-809D-4482-80D8-35075C8E8ECA", 32), "5e67b68b809d448280d835075c8e8eca");
});

it("refuses ids of another length, with other characters, or not strings", () => {
  for (const [value, length] of [
    ["847eecaa1c13c6c", 16], ["847eecaa1c13c6c2a", 16], ["5e67b68b809d448280d835075c8e8eca", 16],
    ["847eecaa1c13c6c2", 32], ["847eecaa1c13c6cg", 16], ["847eecaa 1c13c6c2", 16], ["", 16],
    [847, 16], [null, 16], [undefined, 32], [{ id: "847eecaa1c13c6c2" }, 16],
  ] as const) {
    assert.equal(hexIdOf(value, length), undefined, `${JSON.stringify(value)} as ${length} digits`);
  }
});
