/**
 * Posts a webhook. Every body is signed like Sentry's integration webhooks: Sentry-Hook-Signature is
 * the hex HMAC-SHA256 of the exact body bytes under the rule's signing secret, so a receiver can
 * check the message came from this server. X-Periscope-Delivery is stable across retries of one
 * message, for receivers that want to drop a repeat.
 */
import { createHmac } from "node:crypto";
import type { AlertMessage, WebhookFormat } from "../../../model";
import { webhookBody } from "./formats";

export function signatureOf(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body, "utf8").digest("hex");
}

export async function postWebhook(
  delivery: { id: string; target: string; format: WebhookFormat; message: AlertMessage },
  secret: string,
  timeoutMs: number,
): Promise<void> {
  const body = webhookBody(delivery.format, delivery.message);
  const response = await fetch(delivery.target, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "Periscope-Alerts",
      "Sentry-Hook-Resource": delivery.message.kind === "metric" ? "metric_alert" : "event_alert",
      "Sentry-Hook-Timestamp": String(Math.floor(Date.now() / 1000)),
      "Sentry-Hook-Signature": signatureOf(secret, body),
      "X-Periscope-Delivery": delivery.id,
    },
    body,
    // A redirect could point a stored webhook anywhere; the configured URL is the only target.
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
  });
  // The body is not needed; read it so the connection can be reused.
  await response.arrayBuffer().catch(() => undefined);
  if (response.status < 200 || response.status > 299) throw new Error(`the webhook answered HTTP ${response.status}`);
}
