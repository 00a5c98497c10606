/**
 * The alerts background job, on the main thread beside HTTP (docs/architecture.md): every
 * ALERTS_INTERVAL_MS it evaluates the issue feed the ingest commit wrote and sends what the outbox
 * holds. The SDK's request never waits for it: ingest only appends feed rows in its own commit.
 * Every process runs it; on PostgreSQL one process at a time evaluates (an advisory lock) and
 * outbox claims skip rows another process holds.
 */
import type { AlertsConfig } from "../../config";
import type { Logger } from "../../logger";
import type { Storage } from "../../storage/types";
import { smtpMailer } from "./channels/email";
import { decide } from "./evaluator";
import { decideMetrics } from "./metric-evaluator";
import { sendDue } from "./sender";

const EVALUATE_BATCH = 500;
/** Feed entries are kept this long after evaluation: the longest frequency window (1w) and a day. */
const FEED_KEEP_MS = 8 * 86_400_000;
const EXPIRE_EVERY_MS = 3_600_000;

export interface AlertJobs {
  /** Runs a round now (tests, and after a rule's test notification is queued). */
  kick(): void;
  stop(): Promise<void>;
}

export function startAlertJobs(options: {
  storage: Storage;
  config: AlertsConfig;
  publicUrl: () => string;
  logger: Logger;
  onError: (error: unknown) => void;
}): AlertJobs {
  const { storage, config, logger } = options;
  const mailer = config.smtp ? smtpMailer(config.smtp, config.webhookTimeoutMs) : null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;
  let again = false;
  let expiredAt = 0;

  // SQLite: one process owns the file, so a lease found at start is a killed process's; give its rows back now.
  let started: Promise<void> | null = storage.engine === "sqlite" ? storage.alerts.outbox.releaseLeases().catch(options.onError) : null;

  async function round(): Promise<void> {
    if (started) {
      await started;
      started = null;
    }
    // A full batch means more is waiting: go on at once rather than a whole interval later.
    for (;;) {
      const looked = await storage.alerts.feed.evaluate(EVALUATE_BATCH, (entries) => decide(storage, options.publicUrl(), entries, Date.now()));
      if (looked === null || looked < EVALUATE_BATCH || stopped) break;
    }
    // Metric alerts: every rule's window, once per round, by one process at a time.
    if (!stopped) await storage.alerts.metricRules.evaluate((rules) => decideMetrics(storage, options.publicUrl(), rules, Date.now()));
    while (!stopped && (await sendDue({ storage, config, mailer })) > 0);
    if (Date.now() - expiredAt > EXPIRE_EVERY_MS) {
      expiredAt = Date.now();
      const removed = await storage.alerts.feed.expire(Date.now() - FEED_KEEP_MS);
      if (removed > 0) logger.debug(`alerts: expired ${removed} evaluated feed entries`);
    }
  }

  function schedule(delay: number): void {
    if (stopped) return;
    timer = setTimeout(run, delay);
    timer.unref();
  }

  function run(): void {
    timer = null;
    if (running) {
      again = true;
      return;
    }
    running = round()
      .catch((error: unknown) => options.onError(error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          schedule(0);
        } else {
          schedule(config.intervalMs);
        }
      });
  }

  schedule(config.intervalMs);
  return {
    kick() {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      run();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      mailer?.close();
    },
  };
}
