/**
 * Environment → typed configuration, validated once at startup. Nothing else reads `process.env`.
 * Every key is documented in docs/configuration.md; keep the two in step.
 */
import path from "node:path";
import { z } from "zod";

const MiB = 1024 * 1024;

const bytes = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  PUBLIC_URL: z
    .string()
    .url()
    .refine((value) => /^https?:\/\//.test(value), "must start with http:// or https://")
    .optional(),
  MAX_REQUEST_BYTES: bytes(20 * MiB),
  MAX_ENVELOPE_BYTES: bytes(100 * MiB),
  MAX_EVENT_BYTES: bytes(1 * MiB),
  WRITER_FLUSH_MS: z.coerce.number().int().min(0).max(1000).default(2),
  WRITER_MAX_PENDING: z.coerce.number().int().positive().default(20000),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
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
  };
  writer: {
    flushMs: number;
    /** Records queued but not committed before ingest answers 503 with Retry-After. */
    maxPending: number;
  };
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
}

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
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: path.resolve(c.DATA_DIR),
    publicUrl: c.PUBLIC_URL ? c.PUBLIC_URL.replace(/\/+$/, "") : null,
    limits: {
      maxRequestBytes: c.MAX_REQUEST_BYTES,
      maxEnvelopeBytes: c.MAX_ENVELOPE_BYTES,
      maxEventBytes: c.MAX_EVENT_BYTES,
    },
    writer: { flushMs: c.WRITER_FLUSH_MS, maxPending: c.WRITER_MAX_PENDING },
    logLevel: c.LOG_LEVEL,
  };
}
