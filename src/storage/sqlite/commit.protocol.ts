import type { IngestRecordResult } from "../types";
import type { HandedRecord } from "./commit-records";

/** The commit thread's name in /proc (src/thread-name.ts). */
export const COMMIT_THREAD_NAME = "sqlite-commit";

export interface CommitThreadData {
  file: string;
  /** wal_autocheckpoint for the commit connection; null keeps SQLite's default. */
  autocheckpointPages: number | null;
  /** IssueEventsOptions.mergeEveryMs; undefined keeps ISSUE_EVENTS_MERGE_MS. */
  issueEventsMergeMs?: number;
}

/** Main thread → commit thread. */
export type ToCommitThread = { type: "commit"; id: number; records: HandedRecord[] } | { type: "close" };

/** Commit thread → main thread. */
export type FromCommitThread =
  | { type: "done"; id: number; results: IngestRecordResult[] }
  | { type: "failed"; id: number; message: string };
