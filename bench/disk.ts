/**
 * How the disk answers fsync in this run. A commit is acknowledged only after the WAL's fsync, so a
 * disk that pauses an fsync pauses every acknowledgement waiting on that commit: on this machine's
 * virtual disk a bare loop of small fsyncs saw pauses of 100–280 ms in some hours and none in others
 * (docs/performance.md). Printed beside the servers' figures so a run's p99 can be read against it.
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { percentile } from "./load";

export interface FsyncProbe {
  fsyncs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Fsyncs that took longer than SLOW_FSYNC_MS. */
  slow: number;
}

export const SLOW_FSYNC_MS = 50;
/** About what a commit of the realistic mix appends to the WAL: a few 4 KB pages. */
const WRITE_BYTES = 16_384;
/** Written round a file of this size, as the WAL is reused from its start. */
const FILE_BYTES = 16 << 20;

/** Writes WRITE_BYTES and fdatasyncs, back to back, for `seconds`, in a file of its own under `parent`. */
export function probeFsync(parent: string, seconds: number): FsyncProbe {
  const dir = mkdtempSync(path.join(parent, "periscope-fsync-probe-"));
  const fd = openSync(path.join(dir, "probe"), "w");
  try {
    const block = Buffer.alloc(WRITE_BYTES, 0x5a);
    const times: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    for (let offset = 0; performance.now() < deadline; offset = (offset + WRITE_BYTES) % FILE_BYTES) {
      writeSync(fd, block, 0, block.length, offset);
      const started = performance.now();
      fdatasyncSync(fd);
      times.push(performance.now() - started);
    }
    return {
      fsyncs: times.length,
      p50Ms: percentile(times, 50),
      p99Ms: percentile(times, 99),
      maxMs: Math.max(...times),
      slow: times.filter((time) => time > SLOW_FSYNC_MS).length,
    };
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}
