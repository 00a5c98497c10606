/**
 * Sends what the outbox holds. Each claim is a lease (another process, or this one after a
 * restart, takes the row again only once it ran out), and a row is marked sent right after its
 * send succeeds: a message is sent once unless the process dies between the two.
 */
import type { AlertsConfig } from "../../config";
import type { AlertDelivery } from "../../model";
import type { Storage } from "../../storage/types";
import type { Mailer } from "./channels/email";
import { postWebhook } from "./channels/webhook";

/** Longer than any one send can take (the SMTP and webhook timeouts), so a live sender never loses its lease. */
export const LEASE_MS = 120_000;
const CLAIM_BATCH = 20;
const MAX_BACKOFF_MS = 3_600_000;

export interface SenderDeps {
  storage: Storage;
  config: AlertsConfig;
  mailer: Mailer | null;
}

/** The wait before attempt `attempts + 1`: base, 2×base, 4×base … up to an hour. */
export function backoffMs(baseMs: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1));
}

async function sendOne(deps: SenderDeps, delivery: AlertDelivery): Promise<void> {
  if (delivery.channel === "email") {
    if (!deps.mailer) throw new Error("email is not configured: set SMTP_HOST and SMTP_FROM");
    await deps.mailer.send(delivery.target, delivery.message);
    return;
  }
  const rule = delivery.metricRuleId !== null
    ? await metricRuleOf(deps.storage, delivery.projectId, delivery.metricRuleId)
    : delivery.ruleId === null ? null : await deps.storage.alerts.rules.get(delivery.projectId, delivery.ruleId);
  if (!rule) throw new Error("the rule was deleted, so there is no secret to sign the webhook with");
  await postWebhook({ id: delivery.id, target: delivery.target, format: delivery.format ?? "json", message: delivery.message }, rule.signingSecret, deps.config.webhookTimeoutMs);
}

/** A metric rule's signing secret: the rule is the organisation's, found through the delivery's project. */
async function metricRuleOf(storage: Storage, projectId: string, ruleId: string): Promise<{ signingSecret: string } | null> {
  const project = await storage.projects.getById(projectId);
  return project ? storage.alerts.metricRules.get(project.organizationId, ruleId) : null;
}

/** Why a send failed, in one line for the delivery log. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? `: ${cause.message}` : "";
  return `${error.name === "TimeoutError" ? "timed out" : error.message}${detail}`.slice(0, 500);
}

/** Claims and sends one batch; resolves with how many it claimed. */
export async function sendDue(deps: SenderDeps, now = Date.now()): Promise<number> {
  const claimed = await deps.storage.alerts.outbox.claim(CLAIM_BATCH, now, LEASE_MS);
  await Promise.all(
    claimed.map(async (delivery) => {
      try {
        await sendOne(deps, delivery);
      } catch (error) {
        const reason = reasonOf(error);
        const retryAt = delivery.attempts >= deps.config.maxAttempts ? null : Date.now() + backoffMs(deps.config.retryBaseMs, delivery.attempts);
        await deps.storage.alerts.outbox.markFailed(delivery.id, reason, retryAt);
        return;
      }
      await deps.storage.alerts.outbox.markSent(delivery.id, Date.now());
    }),
  );
  return claimed.length;
}
