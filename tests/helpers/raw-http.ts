/** HTTP/1.1 spoken by hand, for tests that need control over each byte and each connection. */

export interface RawAnswer {
  status: number;
  /** Lower-case names, in the order sent. */
  headers: Record<string, string>;
  body: string;
}

/** The Content-Length framed answers complete at the start of `received`, and the bytes after them. */
export function takeAnswers(received: Buffer): { answers: RawAnswer[]; rest: Buffer } {
  const answers: RawAnswer[] = [];
  let rest = received;
  for (let end = rest.indexOf("\r\n\r\n"); end >= 0; end = rest.indexOf("\r\n\r\n")) {
    const [statusLine, ...lines] = rest.subarray(0, end).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    const length = Number(headers["content-length"] ?? 0);
    if (rest.length < end + 4 + length) break;
    answers.push({ status: Number(statusLine!.split(" ")[1]), headers, body: rest.subarray(end + 4, end + 4 + length).toString() });
    rest = rest.subarray(end + 4 + length);
  }
  return { answers, rest };
}

/** A POST with a Content-Length body, Host first, then Content-Length, then `headers`. */
export function rawPost(target: string, body: string | Buffer, headers: Record<string, string> = {}): Buffer {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  const lines = [`POST ${target} HTTP/1.1`, "Host: localhost", `Content-Length: ${bytes.length}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1"), bytes]);
}
