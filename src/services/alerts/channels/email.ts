/** Alert email over SMTP with nodemailer (SMTP_* settings, docs/configuration.md). */
import nodemailer from "nodemailer";
import type { AlertsConfig } from "../../../config";
import type { AlertMessage } from "../../../model";
import { headline } from "./formats";

type Smtp = NonNullable<AlertsConfig["smtp"]>;

export interface Mailer {
  send(to: string, message: AlertMessage): Promise<void>;
  close(): void;
}

const escapeHtml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

export function emailContent(message: AlertMessage): { subject: string; text: string; html: string } {
  const { issue } = message;
  const subject = `[Periscope] ${message.project.slug}: ${headline(message)}`.slice(0, 250);
  const lines = [
    message.trigger,
    "",
    headline(message),
    ...(issue ? [issue.culprit, "", `Level: ${issue.level}`, `Events: ${issue.count}`, `Users: ${issue.userCount}`, ...(issue.release ? [`Release: ${issue.release}`] : []), ...(issue.environment ? [`Environment: ${issue.environment}`] : [])] : []),
    `Project: ${message.project.name}`,
    ...(message.rule ? [`Rule: ${message.rule.name}`] : []),
    "",
    `Open in Periscope: ${message.url}`,
  ];
  const html = `<p>${escapeHtml(message.trigger)}</p><h2><a href="${escapeHtml(message.url)}">${escapeHtml(headline(message))}</a></h2>${
    issue ? `<p><code>${escapeHtml(issue.culprit)}</code></p><p>Level: ${escapeHtml(issue.level)} · Events: ${issue.count} · Users: ${issue.userCount}</p>` : ""
  }<p>Project: ${escapeHtml(message.project.name)}${message.rule ? ` · Rule: ${escapeHtml(message.rule.name)}` : ""}</p><p><a href="${escapeHtml(message.url)}">Open in Periscope</a></p>`;
  return { subject, text: lines.join("\n"), html };
}

export function smtpMailer(smtp: Smtp, timeoutMs: number): Mailer {
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.tls === "implicit",
    requireTLS: smtp.tls === "starttls",
    ignoreTLS: smtp.tls === "off",
    auth: smtp.user !== null && smtp.password !== null ? { user: smtp.user, pass: smtp.password } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  return {
    async send(to, message) {
      const content = emailContent(message);
      await transport.sendMail({ from: smtp.from, to, ...content });
    },
    close: () => transport.close(),
  };
}
