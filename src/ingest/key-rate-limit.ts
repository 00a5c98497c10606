/**
 * Per-key rate limits (Sentry's ProjectKey `rateLimit: {window, count}`): at most `count` events
 * per `window` seconds, windows aligned to the epoch as Relay's quotas are. Like Sentry's key quota
 * it covers the error categories only; transactions, sessions and the rest pass. Counted in the
 * storage's shared counter (one upsert per request that carries an event, and only for keys that
 * have a limit), so every process on one PostgreSQL spends from the same allowance.
 */
import { AppError } from "../errors";
import { outcome, type ItemContext } from "../items/types";
import type { IngestRecord, ProjectKey } from "../model";
import type { KeyRateCounter } from "../storage/types";
import type { IngestJob } from "./sink";

/** The data categories a key's rate limit covers, as `X-Sentry-Rate-Limits` names them (docs/protocol.md §5.2). */
export const KEY_LIMIT_CATEGORIES = "default;error;security";

/** A 429 that names its own `X-Sentry-Rate-Limits` value, and the outcomes its refusal counts. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    readonly rateLimits: string,
    readonly outcomes: IngestRecord[],
  ) {
    super("rate_limited", message, [], retryAfterSeconds);
  }
}

function eventsIn(job: IngestJob): number {
  if (job.kind === "store") return 1;
  let events = 0;
  for (const item of job.items) if (item.headers.type === "event" || item.headers.type === "security") events++;
  return events;
}

/**
 * Keys this process has seen over their limit, until their window ends: a flood from a limited key
 * is then refused without a database round trip (another process learns it on its own first
 * request past the limit). Keyed by the limit too, so raising it takes effect at once.
 */
const exhausted = new Map<string, number>();
const EXHAUSTED_MAX = 10_000;

/** Resolves when the job may go on; rejects with RateLimitedError when it takes the key over its limit. */
export async function enforceKeyRateLimit(key: ProjectKey, job: IngestJob, counter: KeyRateCounter): Promise<void> {
  const limit = key.rateLimit;
  if (!limit) return;
  const events = eventsIn(job);
  if (events === 0) return;
  const context: Pick<ItemContext, "projectId" | "receivedAt"> = job.context;
  const now = context.receivedAt / 1000;
  const windowStart = Math.floor(now / limit.window) * limit.window;
  const known = `${key.id}:${limit.count}:${limit.window}`;
  if (exhausted.get(known) !== windowStart) {
    const total = await counter.add(key.id, windowStart, events);
    if (total <= limit.count) return;
    if (exhausted.size >= EXHAUSTED_MAX) exhausted.clear();
    exhausted.set(known, windowStart);
  }
  const retryAfter = Math.max(1, Math.ceil(windowStart + limit.window - now));
  throw new RateLimitedError(
    `event submission rejected: the key's rate limit of ${limit.count} events per ${limit.window} s is reached`,
    retryAfter,
    `${retryAfter}:${KEY_LIMIT_CATEGORIES}:key:key_quota`,
    [outcome(context, "rate_limited", "error", "key_quota", events)],
  );
}
