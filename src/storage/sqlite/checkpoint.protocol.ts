/** The checkpoint thread's name in /proc (src/thread-name.ts). */
export const CHECKPOINT_THREAD_NAME = "sqlite-checkpt";

export interface CheckpointThreadData {
  file: string;
  /** Pause between two checkpoints. */
  intervalMs: number;
}

/** Main thread → checkpoint thread. */
export type ToCheckpointThread = { type: "close" };

/** Checkpoint thread → main thread: a checkpoint failed (each distinct failure once). */
export type FromCheckpointThread = { type: "failed"; message: string };
