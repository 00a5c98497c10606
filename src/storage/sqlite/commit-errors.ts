/**
 * Errors of one batch's data, where committing the batches of a group one by one lets the others
 * through. Anything else (busy, I/O, disk full) would fail each of them again, each after its own
 * wait, so the group fails together.
 */
export function refusesOneBatch(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code.startsWith("SQLITE_CONSTRAINT") || code === "SQLITE_MISMATCH" || code === "SQLITE_TOOBIG";
  // better-sqlite3 refuses values it cannot bind with these before SQLite sees them.
  return error instanceof TypeError || error instanceof RangeError;
}
