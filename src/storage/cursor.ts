import { AppError } from "../errors";

/** Keyset position: the sort column's value and the id that breaks ties. */
export interface CursorPosition {
  /** Every sort column is numeric (times, counts). */
  value: number;
  /** A row id (integer) or a hex event/span id. */
  id: number | string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.value, position.id])).toString("base64url");
}

/** Throws AppError("bad_request") for anything that is not a cursor this server produced. */
export function decodeCursor(cursor: string): CursorPosition {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(parsed) && parsed.length === 2) {
      const [value, id] = parsed as unknown[];
      // Checked here, not by the engines: a string compared with a numeric column repeats or skips
      // pages on SQLite and fails the query on PostgreSQL.
      const validId = (typeof id === "number" && Number.isSafeInteger(id)) || (typeof id === "string" && /^[0-9a-f]{1,64}$/.test(id));
      if (typeof value === "number" && Number.isFinite(value) && validId) return { value, id: id as number | string };
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError("bad_request", `invalid cursor: ${cursor}`);
}
