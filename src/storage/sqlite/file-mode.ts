import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";

/**
 * The database holds password hashes, session tokens and every event: only the server's own user
 * may read it. The directory is created 0700; the file is created 0600 before SQLite opens it (SQLite
 * gives its -wal and -shm files the database file's mode), and files of an existing installation
 * are narrowed to 0600. An existing directory keeps its mode: DATA_DIR may be a shared one.
 */
export function prepareDatabaseFile(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (!existsSync(file)) closeSync(openSync(file, "a", 0o600));
  for (const name of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(name)) chmodSync(name, 0o600);
  }
}
