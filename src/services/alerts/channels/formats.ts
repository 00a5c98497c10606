/**
 * Webhook bodies (docs/alerts.md#webhooks): "json" is close to Sentry's issue-alert webhook
 * (`action`, `actor`, `data.issue`, `data.triggered_rule`); "slack" is an incoming-webhook payload
 * with blocks; "discord" an execute-webhook payload with one embed.
 */
import type { AlertMessage, WebhookFormat } from "../../../model";

const iso = (ms: number) => new Date(ms).toISOString();

/** Discord embed colours by level (decimal RGB). */
const LEVEL_COLOURS: Record<string, number> = { fatal: 0xb42318, error: 0xe5484d, warning: 0xf5a524, info: 0x3e8ed0, debug: 0x8a8f98 };

const METRIC_LEVELS = { critical: "error", warning: "warning", resolved: "info" } as const;

export function headline(message: AlertMessage): string {
  if (message.metric) return `${message.metric.state === "resolved" ? "Resolved" : message.metric.state === "critical" ? "Critical" : "Warning"}: ${message.rule?.name ?? ""}`;
  return message.issue ? `${message.issue.shortId}: ${message.issue.title}` : `Test notification for rule "${message.rule?.name ?? ""}"`;
}

function jsonBody(message: AlertMessage) {
  const { issue } = message;
  return {
    action: message.kind === "test" ? "test" : message.metric ? message.metric.state : "triggered",
    actor: { type: "application", id: "periscope", name: "Periscope" },
    data: {
      triggered_rule: message.rule?.name ?? null,
      trigger: message.trigger,
      organization: message.organization,
      project: message.project,
      ...(message.metric ? { metric_alert: { ...message.metric, rule: message.rule } } : {}),
      issue: issue
        ? {
            id: issue.id, shortId: issue.shortId, title: issue.title, culprit: issue.culprit, level: issue.level, status: issue.status,
            count: String(issue.count), userCount: issue.userCount, firstSeen: iso(issue.firstSeen), lastSeen: iso(issue.lastSeen),
            release: issue.release, environment: issue.environment, web_url: issue.url,
          }
        : null,
      url: message.url,
    },
  };
}

function slackBody(message: AlertMessage) {
  const { issue } = message;
  const details = issue
    ? [`*Level:* ${issue.level}`, `*Project:* ${message.project.slug}`, ...(issue.culprit ? [`*Culprit:* ${issue.culprit}`] : []), `*Why:* ${message.trigger}`]
    : [`*Project:* ${message.project.slug}`, `*Rule:* ${message.rule?.name ?? ""}`, ...(message.metric ? [`*Why:* ${message.trigger}`] : [])];
  return {
    text: `${message.trigger}: ${headline(message)} ${message.url}`,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*<${message.url}|${escapeSlack(headline(message))}>*` } },
      { type: "context", elements: details.map((text) => ({ type: "mrkdwn", text: escapeSlack(text) })) },
    ],
  };
}

/** Slack's mrkdwn treats these three as markup. */
function escapeSlack(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function discordBody(message: AlertMessage) {
  const { issue } = message;
  return {
    content: message.trigger,
    embeds: [
      {
        title: headline(message).slice(0, 256),
        url: message.url,
        description: issue?.culprit ? issue.culprit.slice(0, 4096) : undefined,
        color: LEVEL_COLOURS[issue?.level ?? (message.metric ? METRIC_LEVELS[message.metric.state] : "info")] ?? LEVEL_COLOURS.info,
        fields: [
          ...(issue ? [{ name: "Level", value: issue.level, inline: true }] : []),
          { name: "Project", value: message.project.slug, inline: true },
          ...(message.rule ? [{ name: "Rule", value: message.rule.name.slice(0, 1024), inline: true }] : []),
        ],
        timestamp: iso(message.firedAt),
      },
    ],
  };
}

export function webhookBody(format: WebhookFormat, message: AlertMessage): string {
  switch (format) {
    case "json":
      return JSON.stringify(jsonBody(message));
    case "slack":
      return JSON.stringify(slackBody(message));
    case "discord":
      return JSON.stringify(discordBody(message));
  }
}
