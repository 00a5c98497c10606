import pg from "pg";

/** NOTIFY channel on which key and project changes reach every process's key cache (src/storage/app/dialect.ts). */
export const KEYS_CHANNEL = "periscope_keys";

/**
 * Key-cache invalidation across processes: one dedicated connection LISTENs on the channel that key
 * and project writes NOTIFY (src/storage/app/dialect.ts). When that connection is lost, notifications may
 * have been missed, so listeners are called again once it is back; the caches' TTL bounds the rest.
 */
export class KeyChangeListener {
  private readonly listeners = new Set<() => void>();
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly config: { url: string }) {}

  /** Connects and LISTENs before the storage is handed out, so no change made after that is missed. */
  async start(): Promise<void> {
    await this.connect(false);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  private async connect(reconnecting: boolean): Promise<void> {
    this.retry = null;
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.config.url, connectionTimeoutMillis: 5_000 });
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.client = null;
      void client.end().catch(() => undefined);
      if (!this.closed) this.retry = setTimeout(() => void this.connect(true), 1_000);
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", () => this.notify());
    try {
      await client.connect();
      await client.query(`LISTEN ${KEYS_CHANNEL}`);
      if (reconnecting) this.notify();
    } catch {
      lost();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
