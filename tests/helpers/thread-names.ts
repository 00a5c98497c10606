import { readdirSync, readFileSync } from "node:fs";

/** Each thread of this process by its id, with its name as Linux shows it (/proc/self/task/<tid>/comm). */
export function threadNames(): Map<number, string> {
  const names = new Map<number, string>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      names.set(Number(tid), readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim());
    } catch {
      // a thread that ended while we listed them
    }
  }
  return names;
}
