/**
 * The head of an HTTP/1.1 request, read by the direct ingest path (direct-server.ts) without
 * node:http. It takes only the plainest form of request, the one every SDK sends: HTTP/1.1, a
 * Content-Length body, each header once. Anything else — chunked bodies, `Expect`, upgrades,
 * HTTP/1.0, folded or malformed lines, a missing Host — is null here, and the connection goes to
 * node:http, whose parser is the authority on what is valid and answers it as before.
 */

export interface RequestHead {
  method: string;
  /** As sent: origin-form, path and query. */
  target: string;
  /** Lower-case names, values without surrounding whitespace, as node:http gives them. */
  headers: Record<string, string>;
  contentLength: number;
  /** False when the client asked for `Connection: close`. */
  keepAlive: boolean;
}

const REQUEST_LINE = /^([A-Z]+) (\/[^\s]*) HTTP\/1\.1$/;
/** RFC 9110 token characters for the name; the value's surrounding spaces and tabs are dropped. */
const HEADER_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*$/;
/** Control characters other than tab are not allowed in a field value (node's parser refuses them too). */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
const DIGITS = /^\d{1,15}$/;
/** Headers whose presence means a request this reader does not take (node:http does). */
const NOT_DIRECT = ["transfer-encoding", "expect", "upgrade"];

/** `text` is the head decoded as latin1, without the blank line that ends it; null: not for the direct path. */
export function parseRequestHead(text: string): RequestHead | null {
  const lines = text.split("\r\n");
  const requestLine = REQUEST_LINE.exec(lines[0]!);
  if (!requestLine) return null;
  // No prototype: a header named __proto__ is a header like any other.
  const headers = Object.create(null) as Record<string, string>;
  for (let index = 1; index < lines.length; index++) {
    const field = HEADER_LINE.exec(lines[index]!);
    if (!field || CONTROL.test(field[2]!)) return null;
    const name = field[1]!.toLowerCase();
    if (Object.hasOwn(headers, name)) return null;
    headers[name] = field[2]!;
  }
  const contentLength = headers["content-length"];
  if (contentLength === undefined || !DIGITS.test(contentLength) || headers.host === undefined) return null;
  if (NOT_DIRECT.some((name) => Object.hasOwn(headers, name))) return null;
  const connection = (headers.connection ?? "").toLowerCase().split(",").map((token) => token.trim());
  if (connection.includes("upgrade")) return null;
  return {
    method: requestLine[1]!,
    target: requestLine[2]!,
    headers,
    contentLength: Number(contentLength),
    keepAlive: !connection.includes("close"),
  };
}
