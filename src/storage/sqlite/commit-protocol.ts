import type { IngestRecordResult } from "../types";
import type { HandedRecord } from "./commit-records";

/** Main thread → commit thread. */
export type ToCommitThread = { type: "commit"; id: number; records: HandedRecord[] } | { type: "close" };

/** Commit thread → main thread. */
export type FromCommitThread =
  | { type: "done"; id: number; results: IngestRecordResult[] }
  | { type: "failed"; id: number; message: string };
