/**
 * The transactions list's columns, sort and filter (pure code, shared by the page and its tests):
 * `sort` is a column id, `-` first for descending; `query` holds free text (matched in the name),
 * `op:<op>`, and numeric conditions such as `p95:>500`, `count:>=10`, `failure_rate:>0.05`.
 */
import type { TransactionRow } from "@/src/services/telemetry/performance";

export const COLUMNS = [
  { id: "name", label: "Transaction", numeric: false, value: (row: TransactionRow) => row.name },
  { id: "op", label: "Op", numeric: false, value: (row: TransactionRow) => row.op },
  { id: "count", label: "Count", numeric: true, value: (row: TransactionRow) => row.count },
  { id: "tpm", label: "TPM", numeric: true, value: (row: TransactionRow) => row.throughput },
  { id: "p50", label: "p50", numeric: true, value: (row: TransactionRow) => row.p50 },
  { id: "p75", label: "p75", numeric: true, value: (row: TransactionRow) => row.p75 },
  { id: "p95", label: "p95", numeric: true, value: (row: TransactionRow) => row.p95 },
  { id: "p99", label: "p99", numeric: true, value: (row: TransactionRow) => row.p99 },
  { id: "failure_rate", label: "Failure rate", numeric: true, value: (row: TransactionRow) => row.failureRate },
  { id: "last_seen", label: "Last seen", numeric: true, value: (row: TransactionRow) => row.lastSeen },
] as const;

export type ColumnId = (typeof COLUMNS)[number]["id"];
export const DEFAULT_SORT = "-count";

const columnOf = (id: string) => COLUMNS.find((column) => column.id === id);

export interface ParsedSort {
  column: ColumnId;
  descending: boolean;
}

export function parseSort(raw: string | undefined): ParsedSort {
  const text = raw || DEFAULT_SORT;
  const descending = text.startsWith("-");
  const column = columnOf(descending ? text.slice(1) : text);
  return column ? { column: column.id, descending } : { column: "count", descending: true };
}

type Condition = (row: TransactionRow) => boolean;

/** The query's conditions, or a message naming the token that is not one. */
export function parseFilter(query: string): { ok: true; conditions: Condition[] } | { ok: false; message: string } {
  const conditions: Condition[] = [];
  for (const token of query.trim().split(/\s+/).filter(Boolean)) {
    const match = /^([a-z][a-z0-9_]*):(.*)$/.exec(token);
    if (!match) {
      const text = token.toLowerCase();
      conditions.push((row) => row.name.toLowerCase().includes(text));
      continue;
    }
    const [, key, value] = match as unknown as [string, string, string];
    const column = columnOf(key);
    if (!column) return { ok: false, message: `Unknown column "${key}" in "${token}": use one of ${COLUMNS.map((c) => c.id).join(", ")}.` };
    if (!column.numeric) {
      conditions.push((row) => String(column.value(row)) === value);
      continue;
    }
    const numeric = /^(>=|<=|>|<|=)?(-?\d+(?:\.\d+)?)$/.exec(value);
    if (!numeric) return { ok: false, message: `Invalid condition "${token}": expected a comparison like ${key}:>100.` };
    const operator = numeric[1] ?? "=";
    const bound = Number(numeric[2]);
    const read = column.value as (row: TransactionRow) => number;
    conditions.push((row) => {
      const at = read(row);
      return operator === ">" ? at > bound : operator === ">=" ? at >= bound : operator === "<" ? at < bound : operator === "<=" ? at <= bound : at === bound;
    });
  }
  return { ok: true, conditions };
}

export function sortedRows(rows: TransactionRow[], sort: ParsedSort): TransactionRow[] {
  const column = columnOf(sort.column)!;
  const sign = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
    return sign * order || a.name.localeCompare(b.name);
  });
}
