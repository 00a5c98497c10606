import type { z } from "zod";
import { AppError } from "../errors";
import { issueMessages } from "../services/parse-input";

/** Largest JSON body an /api/0 route reads; every body it takes is a few hundred bytes. */
const MAX_API_BODY_BYTES = 1024 * 1024;

/**
 * The body as text, refusing it (413) as soon as it passes `maxBytes` — counted while reading, so
 * neither a false Content-Length nor a chunked body can make the server buffer more.
 */
export async function readBodyText(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => new AppError("payload_too_large", `request body larger than ${maxBytes} bytes`);
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Reads a JSON request body and validates it. An empty body counts as `{}` (Sentry's endpoints
 * accept that for optional-only bodies); malformed JSON and schema failures are 400s naming the field.
 */
export async function readJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  const text = await readBodyText(request, MAX_API_BODY_BYTES);
  let raw: unknown = {};
  if (text.trim() !== "") {
    try {
      raw = JSON.parse(text);
    } catch {
      throw new AppError("bad_request", "invalid JSON body");
    }
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const causes = issueMessages(parsed.error);
  throw new AppError("bad_request", `invalid request body: ${causes.join("; ")}`, causes);
}
