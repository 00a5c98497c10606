import { writeFileSync } from "node:fs";

/** Linux keeps at most this many bytes of a thread's name. */
const MAX_THREAD_NAME = 15;

/**
 * Names the calling thread where `top -H`, `ps -L` and the benchmark's per-thread CPU read it
 * (/proc/<pid>/task/<tid>/comm): otherwise every thread of the process is called `node`, and the
 * commit thread cannot be told from the main thread or V8's helpers. Linux only. Where /proc is
 * missing or read-only the thread keeps its name: only observability depends on it.
 */
export function nameThisThread(name: string): void {
  try {
    writeFileSync("/proc/thread-self/comm", name.slice(0, MAX_THREAD_NAME));
  } catch {
    // Not Linux, or no writable /proc: the name is for people and tools, nothing relies on it.
  }
}
