import { readdirSync, readFileSync } from "node:fs";

/** One /proc file of each thread of this process (`comm`, `stat`, ...) by thread id. */
export function threadFiles(file: string): Map<number, string> {
  const contents = new Map<number, string>();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      contents.set(Number(tid), readFileSync(`/proc/self/task/${tid}/${file}`, "utf8"));
    } catch {
      // a thread that ended while we listed them
    }
  }
  return contents;
}

/** Each thread of this process by its id, with its name as Linux shows it. */
export const threadNames = (): Map<number, string> => new Map([...threadFiles("comm")].map(([tid, comm]) => [tid, comm.trim()]));
