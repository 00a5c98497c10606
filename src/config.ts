/**
 * Environment → typed configuration, validated once at startup. Nothing else reads `process.env`.
 * Every key is documented in docs/configuration.md; keep the two in step.
 */
import path from "node:path";
import { z } from "zod";

const MiB = 1024 * 1024;

const bytes = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Region names appear in the tunnel URL (`&r=`); keep them to a safe alphabet. */
const REGION_NAME = /^[a-z0-9-]{1,32}$/;

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  PUBLIC_URL: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//.test(value), "must start with http:// or https://")
    .optional(),
  MAX_REQUEST_BYTES: bytes(20 * MiB),
  MAX_ENVELOPE_BYTES: bytes(20 * MiB),
  MAX_EVENT_BYTES: bytes(1 * MiB),
  MAX_ARTIFACT_BYTES: bytes(100 * MiB),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  MAX_CONNECTIONS: z.coerce.number().int().positive().default(4096),
  // Abuse limits (issue 31; docs/security.md "Limits").
  // Defaults depend on MAX_REQUEST_BYTES and MAX_ENVELOPE_BYTES (below).
  MAX_BUFFERED_BYTES: z.coerce.number().int().positive().optional(),
  MAX_BUFFERED_BYTES_PER_ADDRESS: z.coerce.number().int().positive().optional(),
  MAX_ENVELOPE_ITEMS: z.coerce.number().int().positive().default(1000),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  HEADERS_TIMEOUT_UNDER_PRESSURE_MS: z.coerce.number().int().min(100).max(600_000).default(2_000),
  // Default depends on the ingest topology (below).
  WRITER_FLUSH_MS: z.coerce.number().int().min(0).max(1000).optional(),
  WRITER_MAX_PENDING: z.coerce.number().int().positive().default(20000),
  // Removed (docs/adr/0012-one-ingest-topology.md); still parsed so that `true` is refused by name.
  INGEST_WORKER: z.enum(["true", "false", "1", "0"]).optional(),
  // Both optional: set on PostgreSQL, or an interval with inline commits, they contradict the topology (below).
  SQLITE_COMMIT_THREAD: z.enum(["true", "false", "1", "0"]).optional(),
  SQLITE_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).optional(),
  SOURCEMAP_CACHE_MB: z.coerce.number().int().min(1).max(65_536).default(128),
  // Cron monitors: how often the missed / timed-out check-in job runs.
  MONITOR_DETECTION_INTERVAL_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  // Spike protection's lowest hourly limit per category (issue 33 item 4; src/ingest/spike-protection.ts).
  SPIKE_PROTECTION_MIN_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000_000).default(1000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  SELF_MONITORING: z.enum(["local", "off", "upstream"]).default("local"),
  SELF_MONITORING_DSN: z
    .string()
    .regex(/^https?:\/\/[0-9a-fA-F]{32}@[^/\s]+(\/[^\s]*)?\/\d+$/, "must be a DSN: http(s)://<32 hex key>@host[/path]/<project id>")
    .optional(),
  SELF_MONITORING_ORG_ID: z.string().regex(/^\d+$/, "must be a numeric organisation id").optional(),
  REGION: z.string().regex(REGION_NAME, "must be 1-32 lower-case letters, digits or '-'").optional(),
  REGIONS: z.string().optional(),
  ENABLE_TEST_HOOKS: z.enum(["true", "false", "1", "0"]).default("false"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// URL")
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(90),
  SESSION_TTL_SECONDS: z.coerce.number().int().min(1).max(31_536_000).default(1_209_600),
  TRUST_PROXY: z.enum(["true", "false", "1", "0"]).default("false"),
  PERISCOPE_ADMIN_EMAIL: z.string().email("must be an email address").optional(),
  PERISCOPE_ADMIN_PASSWORD: z.string().min(8, "must be at least 8 characters").max(256).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Base URL used in DSNs and printed links; derived from HOST and PORT when not set. */
  publicUrl: string | null;
  limits: {
    /** Bytes on the wire (before decompression). */
    maxRequestBytes: number;
    /** Bytes after decompression. */
    maxEnvelopeBytes: number;
    /** Bytes of one event item. */
    maxEventBytes: number;
    /** Items in one envelope; parsing stops at the first one past it (413). */
    maxEnvelopeItems: number;
  };
  /** Request bytes held in memory (wire bodies and decoded envelopes) by all requests, and by one address (src/ingest/budget.ts). */
  buffers: { total: number; perAddress: number };
  /** Largest artifact bundle (zip and its files unpacked) or release file sentry-cli may upload. */
  artifacts: { maxBytes: number };
  http: {
    /** A client must finish sending its headers within this time (else 408 and the socket closes). */
    headersTimeoutMs: number;
    /** ... and its whole request within this time. */
    requestTimeoutMs: number;
    /** Open connections above this are closed at once. */
    maxConnections: number;
    /** Open connections from one address (IPv6: one /64) above this are closed at once; 0: no such cap. */
    maxConnectionsPerAddress: number;
    /** The header timeout while more than half of maxConnections are open. */
    headersTimeoutUnderPressureMs: number;
  };
  /** Which threads ingest runs on (IngestTopology). */
  ingest: IngestTopology;
  writer: {
    flushMs: number;
    /** Records queued but not committed before ingest answers 503 with Retry-After. */
    maxPending: number;
  };
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** Bound of the source-map thread's cache of parsed maps (SOURCEMAP_CACHE_MB). */
  sourceMapCacheBytes: number;
  /** How often the cron monitors' detection job looks for missed and timed-out check-ins (MONITOR_DETECTION_INTERVAL_MS). */
  monitorDetectionIntervalMs: number;
  /** Spike protection's lowest hourly limit per category (SPIKE_PROTECTION_MIN_PER_HOUR). */
  spikeProtectionMinPerHour: number;
  /**
   * Where Periscope's own monitoring data goes: its internal "periscope" project (local), nowhere
   * (off), or an upstream Sentry-compatible server, through the same /monitoring tunnel.
   */
  selfMonitoring:
    | { mode: "local" }
    | { mode: "off" }
    | { mode: "upstream"; dsn: string; organizationId: string };
  /** This server's own region name; null when regions are not used. */
  region: string | null;
  /** Other regions the tunnel may forward to: name → base URL (no trailing slash). */
  regions: Record<string, string>;
  /** Routes that raise errors on purpose, for the fallback-page tests. Never enable in production. */
  testHooks: boolean;
  /** Which storage engine: the embedded SQLite file in `dataDir`, or a shared PostgreSQL. */
  database: { engine: "sqlite" } | { engine: "postgres"; url: string; poolSize: number };
  /** Telemetry (events, transactions, spans, sessions, outcomes) older than this many days is expired. */
  retentionDays: number;
  auth: {
    /** A login session ends this long after it began (or at logout). */
    sessionTtlMs: number;
    /**
     * Behind a reverse proxy: take the client address from the last X-Forwarded-For entry (the one
     * the proxy added) for login throttling and the audit log. Off, a client could forge it.
     */
    trustProxy: boolean;
    /** Creates the owner at first start instead of the setup page (automation). */
    bootstrapAdmin: { email: string; password: string } | null;
  };
}

/**
 * Which threads ingest runs on: one setting, so no combination of flags can contradict another
 * (docs/adr/0012-one-ingest-topology.md). HTTP and envelope processing always run on the main thread.
 * - SQLite, commits on the commit thread (the default; src/storage/sqlite/commit.main.ts), with WAL
 *   checkpoints on a thread of their own this many ms apart (null: the commit connection checkpoints).
 * - SQLite, commits inline on the main thread: for comparison in tests and benchmarks, and for
 *   single-core machines, where a second thread only adds hand-over cost.
 * - PostgreSQL: commits on the main thread, overlapping over the pool (the server does the work).
 */
export type IngestTopology =
  | { engine: "sqlite"; commits: "thread"; checkpointIntervalMs: number | null }
  | { engine: "sqlite"; commits: "inline" }
  | { engine: "postgres" };

export type SqliteTopology = Extract<IngestTopology, { engine: "sqlite" }>;

/** 2 ms: the checkpoint thread runs at the lowest priority, so short rounds fill the idle time between commits (adr/0006). */
const DEFAULT_CHECKPOINT_INTERVAL_MS = 2;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const relevant: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") relevant[key] = value;
  }
  const parsed = schema.safeParse(relevant);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const c = parsed.data;
  const problems: string[] = [];
  const regions = parseRegions(c.REGIONS, problems);
  if (c.SELF_MONITORING === "upstream" && !c.SELF_MONITORING_DSN) {
    problems.push("SELF_MONITORING_DSN: required when SELF_MONITORING=upstream");
  }
  if (c.REGION && Object.hasOwn(regions, c.REGION)) problems.push(`REGIONS: must not list this server's own region "${c.REGION}"`);
  if (Boolean(c.PERISCOPE_ADMIN_EMAIL) !== Boolean(c.PERISCOPE_ADMIN_PASSWORD)) {
    problems.push("PERISCOPE_ADMIN_EMAIL and PERISCOPE_ADMIN_PASSWORD: set both or neither");
  }
  // The largest request holds its wire body and its decoded envelope at once; a budget below that refuses it forever.
  const largestRequest = c.MAX_REQUEST_BYTES + c.MAX_ENVELOPE_BYTES;
  const perAddressBuffers = c.MAX_BUFFERED_BYTES_PER_ADDRESS ?? Math.max(64 * MiB, largestRequest);
  const totalBuffers = c.MAX_BUFFERED_BYTES ?? Math.max(256 * MiB, 4 * perAddressBuffers);
  if (perAddressBuffers < largestRequest) {
    problems.push(`MAX_BUFFERED_BYTES_PER_ADDRESS: must be at least MAX_REQUEST_BYTES + MAX_ENVELOPE_BYTES (${largestRequest})`);
  }
  if (totalBuffers < perAddressBuffers) problems.push(`MAX_BUFFERED_BYTES: must be at least MAX_BUFFERED_BYTES_PER_ADDRESS (${perAddressBuffers})`);
  const ingest = ingestTopology(c, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  // Where the commit does not block the thread that gathers batches (the commit thread), batches
  // gather while the previous commit runs and no timer is needed; where it does, a 2 ms wait gathers
  // concurrent requests (docs/adr/0004-sqlite-commit-thread.md).
  const commitOverlaps = ingest.engine === "sqlite" && ingest.commits === "thread";
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: c.PUBLIC_URL ? c.PUBLIC_URL.replace(/\/+$/, "") : null,
    limits: {
      maxRequestBytes: c.MAX_REQUEST_BYTES,
      maxEnvelopeBytes: c.MAX_ENVELOPE_BYTES,
      maxEventBytes: c.MAX_EVENT_BYTES,
      maxEnvelopeItems: c.MAX_ENVELOPE_ITEMS,
    },
    buffers: { total: totalBuffers, perAddress: perAddressBuffers },
    artifacts: { maxBytes: c.MAX_ARTIFACT_BYTES },
    http: {
      headersTimeoutMs: c.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: c.REQUEST_TIMEOUT_MS,
      maxConnections: c.MAX_CONNECTIONS,
      maxConnectionsPerAddress: c.MAX_CONNECTIONS_PER_ADDRESS,
      headersTimeoutUnderPressureMs: Math.min(c.HEADERS_TIMEOUT_UNDER_PRESSURE_MS, c.HEADERS_TIMEOUT_MS),
    },
    ingest,
    writer: { flushMs: c.WRITER_FLUSH_MS ?? (commitOverlaps ? 0 : 2), maxPending: c.WRITER_MAX_PENDING },
    logLevel: c.LOG_LEVEL,
    sourceMapCacheBytes: c.SOURCEMAP_CACHE_MB * MiB,
    monitorDetectionIntervalMs: c.MONITOR_DETECTION_INTERVAL_MS,
    spikeProtectionMinPerHour: c.SPIKE_PROTECTION_MIN_PER_HOUR,
    selfMonitoring:
      c.SELF_MONITORING === "upstream" && c.SELF_MONITORING_DSN
        ? {
            mode: "upstream",
            dsn: c.SELF_MONITORING_DSN,
            organizationId: c.SELF_MONITORING_ORG_ID ?? saasOrganizationId(c.SELF_MONITORING_DSN) ?? "0",
          }
        : { mode: c.SELF_MONITORING === "off" ? "off" : "local" },
    region: c.REGION ?? null,
    regions,
    testHooks: c.ENABLE_TEST_HOOKS === "true" || c.ENABLE_TEST_HOOKS === "1",
    database: c.DATABASE_URL
      ? { engine: "postgres", url: c.DATABASE_URL, poolSize: c.DATABASE_POOL_SIZE }
      : { engine: "sqlite" },
    retentionDays: c.RETENTION_DAYS,
    auth: {
      sessionTtlMs: c.SESSION_TTL_SECONDS * 1000,
      trustProxy: c.TRUST_PROXY === "true" || c.TRUST_PROXY === "1",
      bootstrapAdmin:
        c.PERISCOPE_ADMIN_EMAIL && c.PERISCOPE_ADMIN_PASSWORD
          ? { email: c.PERISCOPE_ADMIN_EMAIL.toLowerCase(), password: c.PERISCOPE_ADMIN_PASSWORD }
          : null,
    },
  };
}

/** The one ingest topology from its settings; a setting that contradicts the others is a problem named by it. */
function ingestTopology(c: z.infer<typeof schema>, problems: string[]): IngestTopology {
  if (c.INGEST_WORKER === "true" || c.INGEST_WORKER === "1") {
    problems.push("INGEST_WORKER: the ingest worker thread was removed (docs/adr/0012-one-ingest-topology.md); unset it");
  }
  if (c.DATABASE_URL) {
    for (const name of ["SQLITE_COMMIT_THREAD", "SQLITE_CHECKPOINT_INTERVAL_MS"] as const) {
      if (c[name] !== undefined) problems.push(`${name}: applies to SQLite only, but DATABASE_URL selects PostgreSQL; unset one of them`);
    }
    return { engine: "postgres" };
  }
  if (c.SQLITE_COMMIT_THREAD === "false" || c.SQLITE_COMMIT_THREAD === "0") {
    if (c.SQLITE_CHECKPOINT_INTERVAL_MS) {
      problems.push("SQLITE_CHECKPOINT_INTERVAL_MS: the checkpoint thread needs the commit thread, which SQLITE_COMMIT_THREAD=false turns off; set it to 0 or unset it");
    }
    return { engine: "sqlite", commits: "inline" };
  }
  const interval = c.SQLITE_CHECKPOINT_INTERVAL_MS ?? DEFAULT_CHECKPOINT_INTERVAL_MS;
  return { engine: "sqlite", commits: "thread", checkpointIntervalMs: interval > 0 ? interval : null };
}

/** `REGIONS=us=https://us.example.com,eu=https://eu.example.com` → { us: ..., eu: ... }. */
function parseRegions(raw: string | undefined, problems: string[]): Record<string, string> {
  const regions: Record<string, string> = {};
  for (const entry of (raw ?? "").split(",").map((part) => part.trim()).filter(Boolean)) {
    const separator = entry.indexOf("=");
    const name = entry.slice(0, separator);
    const base = entry.slice(separator + 1);
    let url: URL | null = null;
    try {
      url = new URL(base);
    } catch {
      url = null;
    }
    if (separator <= 0 || !REGION_NAME.test(name)) {
      problems.push(`REGIONS: "${entry}" must be <name>=<base URL> with a name of lower-case letters, digits or '-'`);
    } else if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) {
      problems.push(`REGIONS: "${name}" needs an http(s) base URL without query, fragment or credentials`);
    } else {
      regions[name] = url.toString().replace(/\/+$/, "");
    }
  }
  return regions;
}

/** Sentry SaaS DSNs carry the organisation id in the host: o123.ingest[.us].sentry.io. */
function saasOrganizationId(dsn: string): string | null {
  return /@o(\d+)\.ingest\./.exec(dsn)?.[1] ?? null;
}
