/**
 * Real receivers for alert tests: an SMTP server (the `smtp-server` package) that keeps every mail
 * it is handed, parsed enough to check subject, recipients and body; and an HTTP server that keeps
 * every webhook request and can be told to fail for a while.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  /** The text/plain part, transfer encoding undone. */
  text: string;
  raw: string;
}

/** Header value with folded lines joined. */
function header(head: string, name: string): string {
  const unfolded = head.replace(/\r?\n[ \t]+/g, " ");
  const line = unfolded.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : "";
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The text/plain part of a MIME message (multipart/alternative as nodemailer writes it, or a single part). */
function plainText(raw: string): string {
  const [head = "", ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join("\r\n\r\n");
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(header(head, "Content-Type"))?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [`${head}\r\n\r\n${body}`];
  for (const part of parts) {
    const [partHead = "", ...partBody] = part.replace(/^\r?\n/, "").split(/\r?\n\r?\n/);
    if (!/text\/plain/i.test(header(partHead, "Content-Type"))) continue;
    const content = partBody.join("\r\n\r\n");
    const encoding = header(partHead, "Content-Transfer-Encoding").toLowerCase();
    if (encoding === "quoted-printable") return decodeQuotedPrintable(content);
    if (encoding === "base64") return Buffer.from(content.replace(/\s+/g, ""), "base64").toString("utf8");
    return content;
  }
  return "";
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? "";
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: header(head, "Subject"),
          text: plainText(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface ReceivedHook {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: Record<string, unknown>;
}

export interface WebhookReceiver {
  url: string;
  /** Requests answered 2xx (failed ones are counted in `refused`). */
  hooks: ReceivedHook[];
  refused: number;
  /** Answer every request with this status until `recover()`. */
  failWith(status: number): void;
  recover(): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let failing: number | null = null;
  const receiver: WebhookReceiver = {
    url: "",
    hooks: [],
    refused: 0,
    failWith: (status) => (failing = status),
    recover: () => (failing = null),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (failing !== null) {
        receiver.refused++;
        res.writeHead(failing).end();
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers[name] = value;
      receiver.hooks.push({ path: req.url ?? "/", headers, body, json: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** Polls `check` until it returns a value (not undefined) or `ms` pass. */
export async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
