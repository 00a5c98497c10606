/**
 * The telemetry repositories beyond error events: sessions, transactions and spans. Their data types
 * live in src/model/telemetry.ts.
 */
import type { Page, SessionDurationRow, SessionStatsQuery, SessionStatsRow, SessionUpdate, SpanListQuery, StoredSpan, StoredTransaction } from "../model";

export interface SessionRepo {
  /** The latest state of one session, or null. */
  get(projectId: string, sid: string): Promise<SessionUpdate | null>;
  stats(query: SessionStatsQuery): Promise<SessionStatsRow[]>;
  // Release health (issue 37): duration quantiles of cleanly ended single sessions.
  /** p50/p90 of `duration` (seconds) of exited sessions started in [start, end), per project and release. */
  durations(query: Omit<SessionStatsQuery, "interval" | "groupBy">): Promise<SessionDurationRow[]>;
}

export interface TransactionRepo {
  get(projectId: string, eventId: string): Promise<StoredTransaction | null>;
}

export interface SpanRepo {
  /** Every span of a trace in these projects, by start time. */
  trace(projectIds: string[], traceId: string): Promise<StoredSpan[]>;
  /** Newest (by end) first. */
  list(query: SpanListQuery): Promise<Page<StoredSpan>>;
}

