import type { Statement } from "better-sqlite3";
import type { TagDelta } from "../issue-deltas";
import type { Db } from "./db";

/**
 * Rows per statement. An event has 11–12 tags in the benchmark's mix; one multi-row upsert instead
 * of one call per tag took ≈ 20 % less time (17.3–18.5 against 23.1–23.6 µs for an event's 12 tags,
 * docs/performance.md). Bounded so that an event with hundreds of custom tags does not prepare a
 * statement per count.
 */
export const TAG_ROWS_PER_STATEMENT = 16;

type TagValues = (number | string)[];

/**
 * Adds an issue's tag counts to issue_tags, up to TAG_ROWS_PER_STATEMENT rows per statement.
 * The statement for each row count is prepared when first needed and kept.
 */
export function tagUpserts(db: Db): (issueId: number, tags: Iterable<TagDelta>) => void {
  const statements = new Map<number, Statement<[TagValues]>>();
  const statementFor = (rows: number) => {
    let statement = statements.get(rows);
    if (!statement) {
      statement = db.prepare<[TagValues]>(
        `INSERT INTO issue_tags (issue_id, key, value, count, first_seen, last_seen)
         VALUES ${Array.from({ length: rows }, () => "(?, ?, ?, ?, ?, ?)").join(", ")}
         ON CONFLICT (issue_id, key, value) DO UPDATE SET count = count + excluded.count,
           first_seen = MIN(first_seen, excluded.first_seen), last_seen = MAX(last_seen, excluded.last_seen)`,
      );
      statements.set(rows, statement);
    }
    return statement;
  };
  return (issueId, tags) => {
    let values: TagValues = [];
    for (const tag of tags) {
      values.push(issueId, tag.key, tag.value, tag.count, tag.firstSeen, tag.lastSeen);
      if (values.length === TAG_ROWS_PER_STATEMENT * 6) {
        statementFor(TAG_ROWS_PER_STATEMENT).run(values);
        values = [];
      }
    }
    if (values.length > 0) statementFor(values.length / 6).run(values);
  };
}
