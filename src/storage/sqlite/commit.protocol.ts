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

/** A request to the commit thread (src/threads/protocol.ts): one batch, committed durably before it is answered. */
export type CommitRequest = HandedRecord[];

/** Its answer: a result per record handed, in their order. */
export type CommitResponse = IngestRecordResult[];
