/**
 * Issue tag counts written several rows per statement (tag-upserts.ts): every tag lands once per
 * issue and key/value, counts add up across calls, first and last seen widen, and lists longer than
 * one statement are split without losing or repeating a row.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, it } from "node:test";
import { openDatabase } from "../../src/storage/sqlite/db";
import type { TagDelta } from "../../src/storage/issue-deltas";
import { TAG_ROWS_PER_STATEMENT, tagUpserts } from "../../src/storage/sqlite/tag-upserts";

const dir = mkdtempSync(path.join(tmpdir(), "periscope-tag-upserts-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const db = openDatabase(path.join(dir, "periscope.db"));
after(() => db.close());
const bump = tagUpserts(db);

type Row = { issue_id: number; key: string; value: string; count: number; first_seen: number; last_seen: number };
const rowsOf = (issueId: number) =>
  db.prepare<[number], Row>("SELECT * FROM issue_tags WHERE issue_id = ? ORDER BY key, value").all(issueId);
const tag = (key: string, value: string, count: number, firstSeen: number, lastSeen: number): TagDelta => ({ key, value, count, firstSeen, lastSeen });

it("inserts new tags and adds to existing ones, widening first and last seen", () => {
  bump(1, [tag("level", "error", 2, 100, 200), tag("os", "Linux", 1, 150, 150)]);
  bump(1, [tag("level", "error", 3, 50, 180), tag("os", "macOS", 1, 300, 300)]);
  bump(2, [tag("level", "error", 1, 400, 400)]);
  assert.deepEqual(rowsOf(1), [
    { issue_id: 1, key: "level", value: "error", count: 5, first_seen: 50, last_seen: 200 },
    { issue_id: 1, key: "os", value: "Linux", count: 1, first_seen: 150, last_seen: 150 },
    { issue_id: 1, key: "os", value: "macOS", count: 1, first_seen: 300, last_seen: 300 },
  ]);
  assert.deepEqual(rowsOf(2), [{ issue_id: 2, key: "level", value: "error", count: 1, first_seen: 400, last_seen: 400 }]);
});

it("writes nothing for no tags", () => {
  bump(3, []);
  assert.deepEqual(rowsOf(3), []);
});

for (const size of [TAG_ROWS_PER_STATEMENT - 1, TAG_ROWS_PER_STATEMENT, TAG_ROWS_PER_STATEMENT + 1, 3 * TAG_ROWS_PER_STATEMENT + 5]) {
  it(`splits ${size} tags over statements without losing or repeating one`, () => {
    const issueId = 100 + size;
    const tags = Array.from({ length: size }, (_, i) => tag(`k${String(i).padStart(3, "0")}`, `v${i}`, i + 1, i, i + 10));
    bump(issueId, tags);
    bump(issueId, tags.slice(0, 2));
    assert.deepEqual(rowsOf(issueId), tags.map((t, i) => ({
      issue_id: issueId, key: t.key, value: t.value, count: i < 2 ? 2 * (i + 1) : i + 1, first_seen: i, last_seen: i + 10,
    })));
  });
}
