import { AppError } from "../errors";

/** Keyset position: the sort column's value and the id that breaks ties. */
export interface CursorPosition {
  value: number | string;
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
      const scalar = (x: unknown) => typeof x === "number" || typeof x === "string";
      if (scalar(value) && scalar(id)) return { value: value as number | string, id: id as number | string };
    }
  } catch {
    // fall through to the error below
  }
  throw new AppError("bad_request", `invalid cursor: ${cursor}`);
}
