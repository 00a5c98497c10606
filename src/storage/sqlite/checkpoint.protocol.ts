/** The checkpoint thread's name in /proc (src/thread-name.ts). */
export const CHECKPOINT_THREAD_NAME = "sqlite-checkpt";

export interface CheckpointThreadData {
  file: string;
  /** Pause between two checkpoints. */
  intervalMs: number;
}

/**
 * The checkpoint thread takes no requests (src/threads/protocol.ts): only `close`, and it posts a
 * notice for each distinct checkpoint failure.
 */
export type CheckpointRequest = never;
