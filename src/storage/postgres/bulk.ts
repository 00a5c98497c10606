/**
 * Multi-row statements: one INSERT per table and batch, its rows passed as one array per column and
 * turned back into rows by unnest(). Table and column names come from the literals in this folder.
 */
import type { Param } from "./db";

export type Column = readonly [name: string, type: "bigint" | "text" | "double precision" | "boolean" | "integer"];

export function unnestInsert(table: string, columns: readonly Column[], suffix = ""): string {
  const names = columns.map(([name]) => name).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  return `INSERT INTO ${table} (${names}) SELECT * FROM unnest(${arrays}) ${suffix}`;
}

type Scalar = string | number | boolean | null;

/** Rows (arrays in column order) → one array per column, the parameters of `unnestInsert`. */
export function columnArrays(rows: readonly (readonly Scalar[])[], width: number): Param[] {
  const out: Scalar[][] = Array.from({ length: width }, () => []);
  for (const row of rows) for (let i = 0; i < width; i++) out[i]!.push(row[i] ?? null);
  return out;
}

/** Sorts copies of rows by the given key columns (stable), so every process locks rows in one order. */
export function sortedBy<T>(rows: readonly T[], key: (row: T) => readonly (string | number)[]): T[] {
  return rows
    .map((row) => ({ row, key: key(row) }))
    .sort((a, b) => {
      for (let i = 0; i < a.key.length; i++) {
        const x = a.key[i]!;
        const y = b.key[i]!;
        if (x < y) return -1;
        if (x > y) return 1;
      }
      return 0;
    })
    .map((entry) => entry.row);
}
