import type { Config } from "../config";
import { AppError } from "../errors";
import type { ItemContext } from "../items/types";
import type { Logger } from "../logger";
import type { CaptureServerException } from "../monitoring/server-capture";
import type { KeyRateCounter, QuotaCounter } from "../storage/types";
import type { Credentials } from "./auth";
import type { BufferBudget } from "./budget";
import type { Envelope } from "./envelope";
import { enforceKeyRateLimit, RateLimitedError } from "./key-rate-limit";
import type { KeyCache, ResolvedKey } from "./keys";
import { isAllowedOrigin } from "./origins";
import type { PrivacyCache } from "./privacy-cache";
import { enforceQuotas } from "./quotas";
import type { IngestJob, IngestSink } from "./sink";

export interface IngestDeps {
  config: Config;
  /** Base URL SDKs reach this server at; DSNs for local projects name its host. */
  publicUrl: string;
  keys: KeyCache;
  /** Counts events against per-key rate limits (src/ingest/key-rate-limit.ts). */
  keyRates: KeyRateCounter;
  /** Counts items against quotas and spike protection (src/ingest/quotas.ts). */
  quotaCounts: QuotaCounter;
  /** Each project's data scrubbing (src/ingest/privacy-cache.ts); absent (tests): the defaults. */
  privacy?: PrivacyCache;
  /** Request bytes held in memory by all ingest requests together (src/ingest/budget.ts). */
  budget: BufferBudget;
  /** Where authenticated jobs become committed records (src/ingest/sink.ts). */
  sink: IngestSink;
  logger: Logger;
  /** The door's own faults (never bad input) are reported to self-monitoring. */
  captureServerException: CaptureServerException;
}

/** Who sent the request, as the items' context records it. */
export interface IngestClient {
  address: string | undefined;
  userAgent: string | undefined;
}

export interface Expected {
  /** The project the URL names (null for the legacy `/api/store/`). */
  projectId: string | null;
  /** The organisation the tunnel URL names, checked against the key's project. */
  organizationId?: string;
  /** The browser's `Origin` (or `Referer`), checked against the project's allowed domains; undefined: not browser traffic. */
  origin?: string;
}

const rejected = (cause: string) =>
  new AppError("forbidden", "event submission rejected with_reason: ProjectId", [cause]);

/** The key must exist, be active and belong to the expected project (and organisation). */
function checkKey(resolved: ResolvedKey | null, expected: Expected): ResolvedKey {
  if (!resolved || !resolved.key.isActive) throw rejected("unknown or disabled DSN key");
  const { project } = resolved;
  if (expected.projectId !== null && expected.projectId !== project.id) {
    throw rejected(`the key belongs to project ${project.id}, not ${expected.projectId}`);
  }
  if (expected.organizationId !== undefined && expected.organizationId !== project.organizationId) {
    throw rejected(`project ${project.id} does not belong to organization ${expected.organizationId}`);
  }
  if (!isAllowedOrigin(expected.origin, resolved.options.allowedDomains)) {
    throw new AppError("forbidden", "event submission rejected with_reason: Cors", [`origin ${expected.origin ?? ""} is not in the project's allowed domains`]);
  }
  return resolved;
}

/**
 * acceptAuthenticated's key check, made before the body is read when the credentials came with the
 * request (headers or query): a client with an unknown key is refused without costing its body.
 * Synchronous (undefined) when the key cache knows the key, as it does for every busy key.
 */
export function preauthorize(credentials: Credentials, expected: Expected, deps: IngestDeps): Promise<void> | undefined {
  const cached = deps.keys.peek(credentials.publicKey);
  if (cached !== undefined) {
    checkKey(cached, expected);
    return undefined;
  }
  return deps.keys.resolve(credentials.publicKey).then((resolved) => void checkKey(resolved, expected));
}

/**
 * The common end of every ingest path (envelope, store, /monitoring): the key must exist, be active
 * and belong to the expected project (and organisation); then the items become records.
 */
export async function acceptAuthenticated(
  client: IngestClient,
  body: Buffer,
  envelope: Envelope | null,
  credentials: Credentials,
  expected: Expected,
  deps: IngestDeps,
): Promise<IngestJob> {
  const { key, project, filter, quotas } = checkKey(await deps.keys.resolve(credentials.publicKey), expected);
  const cached = deps.privacy?.peek(project.id);
  const scrubber = cached !== undefined ? cached : await deps.privacy?.resolve(project);
  const context: ItemContext = {
    projectId: project.id,
    envelopeHeaders: envelope?.headers ?? {},
    receivedAt: Date.now(),
    // With "scrub IP addresses" the client's address is never put on an item.
    clientIp: scrubber?.keepsClientIp === false ? undefined : client.address,
    userAgent: client.userAgent,
    // Always present, so every context has one shape (hidden classes: src/ingest/cors.ts).
    eventFilter: filter ?? undefined,
    scrubber,
  };
  const job: IngestJob = envelope ? { kind: "envelope", items: envelope.items, context } : { kind: "store", body, context };
  if (key.rateLimit) {
    try {
      await enforceKeyRateLimit(key, job, deps.keyRates);
    } catch (error) {
      // The refused events are counted (rate_limited) before the SDK hears 429.
      if (error instanceof RateLimitedError) await deps.sink.recordOutcomes(error.outcomes);
      throw error;
    }
  }
  // A project without quotas or spike protection has no plan and pays nothing here.
  if (quotas) return applyQuotas(job, await enforceQuotas(quotas, job, deps.quotaCounts), deps);
  return job;
}

/** Counts what the quotas dropped and notes on the job what the answer must say; refuses outright when nothing is left. */
async function applyQuotas(job: IngestJob, verdict: Awaited<ReturnType<typeof enforceQuotas>>, deps: IngestDeps): Promise<IngestJob> {
  if (!verdict) return job;
  await deps.sink.recordOutcomes(verdict.outcomes);
  const left = verdict.job;
  if (verdict.refused && (left.kind === "store" || left.items.length === 0)) {
    throw new RateLimitedError(QUOTA_MESSAGE, verdict.retryAfter, verdict.rateLimits, []);
  }
  left.limited = { rateLimits: verdict.rateLimits, retryAfter: verdict.retryAfter, refused: verdict.refused };
  return left;
}

/** Relay's 429 text (docs/protocol.md §5.1). */
export const QUOTA_MESSAGE =
  "Sentry dropped data due to a quota or internal rate limit being reached. This will not affect your application. See https://docs.sentry.io/product/accounts/quotas/ for more information.";
