/**
 * The bound on request bytes held in memory across every ingest request at once (issue 31 item 1):
 * wire bodies being read and the envelopes they decode to. Without it, N clients each sending a
 * MAX_REQUEST_BYTES body cost N × 20 MiB, however bad their credentials turn out to be.
 *
 * A request takes bytes from the budget before it holds them (its Content-Length before its body is
 * read, each decoded chunk as it comes out of zlib) and gives them all back when it is answered or
 * dropped. A request that cannot take what it needs is refused with 429 and `Retry-After`
 * (docs/protocol.md §5.2): SDKs pause and retry, as they do for the writer's back-pressure.
 *
 * One address may hold at most `perAddress` of it, so one client cannot fill the budget and starve
 * every other; IPv6 addresses count per /64, the block one subscriber usually has.
 */
import { AppError } from "../errors";
import { addressKey } from "../http/client-address";

export interface BudgetLimits {
  /** Bytes all requests together may hold. */
  total: number;
  /** Bytes the requests from one address (IPv6: one /64) may hold. */
  perAddress: number;
}

/** How long a refused client should wait; buffered requests finish within a request timeout or so. */
const RETRY_AFTER_SECONDS = 1;

export class BufferBudget {
  private used = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(readonly limits: BudgetLimits) {}

  /** Bytes held now, by all requests. */
  get held(): number {
    return this.used;
  }

  /** A lease for one request from `address` (the socket's peer address). */
  lease(address: string | undefined): BufferLease {
    return new BufferLease(this, addressKey(address));
  }

  /** @internal BufferLease's: false when either limit would be passed. */
  tryTake(key: string, bytes: number): boolean {
    const mine = this.byAddress.get(key) ?? 0;
    if (this.used + bytes > this.limits.total || mine + bytes > this.limits.perAddress) return false;
    this.used += bytes;
    this.byAddress.set(key, mine + bytes);
    return true;
  }

  /** @internal */
  give(key: string, bytes: number): void {
    this.used -= bytes;
    const left = (this.byAddress.get(key) ?? 0) - bytes;
    if (left > 0) this.byAddress.set(key, left);
    else this.byAddress.delete(key);
  }
}

/** What one request holds of the budget; released once, when the request is over. */
export class BufferLease {
  private bytes = 0;
  private released = false;

  constructor(
    private readonly budget: BufferBudget,
    private readonly key: string,
  ) {}

  /** Takes `bytes` more, or throws the 429 that refuses the request. */
  take(bytes: number): void {
    if (bytes <= 0) return;
    if (this.released || !this.budget.tryTake(this.key, bytes)) throw overBudget(this.budget.limits);
    this.bytes += bytes;
  }

  /** Gives back everything this request took; later calls do nothing. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.give(this.key, this.bytes);
    this.bytes = 0;
  }
}

export function overBudget(limits: BudgetLimits): AppError {
  return new AppError(
    "rate_limited",
    `ingest is over capacity: request bodies held in memory would pass MAX_BUFFERED_BYTES (${limits.total}) or MAX_BUFFERED_BYTES_PER_ADDRESS (${limits.perAddress}); retry shortly`,
    [],
    RETRY_AFTER_SECONDS,
  );
}
