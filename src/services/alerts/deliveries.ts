/** A rule's delivery log, its test notification, and snoozing one issue's alerts. */
import { z } from "zod";
import type { AlertDelivery, AlertRule, Issue, Organization, Project } from "../../model";
import type { Storage } from "../../storage/types";
import { newSecret } from "../../auth/secrets";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";
import { testMessage } from "./message";
import { recipientsOf } from "./recipients";

const LOG_LIMIT = 100;

export function deliveryLog(storage: Storage, rule: AlertRule): Promise<AlertDelivery[]> {
  return storage.alerts.outbox.listForRule(rule.id, LOG_LIMIT);
}

/**
 * Queues a test message to every recipient of the rule's actions, through the same outbox (so it
 * shows in the delivery log, retried like any other); resolves with what was queued.
 */
export async function queueTestNotification(storage: Storage, publicUrl: string, organization: Organization, project: Project, rule: AlertRule): Promise<{ channel: string; target: string }[]> {
  const now = Date.now();
  const message = testMessage(publicUrl, { organization, project, rule, now });
  const recipients = await recipientsOf(storage, organization, project, rule.actions);
  const batch = newSecret().slice(0, 12);
  await storage.alerts.outbox.add(
    recipients.map((recipient) => ({
      ruleId: rule.id, projectId: project.id, issueId: null, kind: "test" as const, channel: recipient.channel, target: recipient.target,
      format: recipient.channel === "webhook" ? recipient.format : null, message, dedupeKey: `test:${rule.id}:${batch}:${recipient.channel}:${recipient.target}`,
    })),
    now,
  );
  return recipients.map(({ channel, target }) => ({ channel, target }));
}

export const snoozeInput = z.object({
  // Minutes, as Sentry's ignoreDuration: from a minute to a year.
  minutes: z.coerce.number({ error: "must be a number" }).int("must be a whole number").min(1, "must be at least 1").max(525_600, "must be at most 525600 (a year)"),
}).strict();

export async function snoozeIssueAlerts(storage: Storage, actor: Actor, organization: Organization, issue: Issue, minutes: number): Promise<number> {
  const until = Date.now() + minutes * 60_000;
  await storage.alerts.settings.snooze(issue.id, until, actor.userId, Date.now());
  await recordAudit(storage, actor, organization.id, "issue.alerts.snooze", { type: "issue", id: issue.id }, { minutes });
  return until;
}

export async function unsnoozeIssueAlerts(storage: Storage, issue: Issue): Promise<void> {
  await storage.alerts.settings.unsnooze(issue.id);
}

export function alertsSnoozedUntil(storage: Storage, issue: Issue): Promise<number | null> {
  return storage.alerts.settings.snoozedUntil(issue.id);
}

/** Personal notification settings: whether this user gets alert email for the project (on unless turned off). */
export async function emailOnFor(storage: Storage, userId: string, project: Project): Promise<boolean> {
  return !(await storage.alerts.settings.emailOff(userId)).has(project.id);
}

export async function setEmailFor(storage: Storage, userId: string, project: Project, on: boolean): Promise<void> {
  await storage.alerts.settings.setEmail(userId, project.id, on);
}
