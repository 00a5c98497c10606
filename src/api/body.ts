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
  return (await readBodyBytes(request, maxBytes)).toString("utf8");
}

/** The body as bytes, with the same 413 as `readBodyText` past `maxBytes`. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () => new AppError("payload_too_large", `request body larger than ${maxBytes} bytes`);
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
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
  return Buffer.concat(chunks);
}

export interface MultipartPart {
  field: string;
  /** The part's file name; null for a plain field. */
  filename: string | null;
  bytes: Buffer;
}

/**
 * A multipart/form-data body, read under `maxBytes` (413 past it) and then parsed by the platform's
 * own parser; anything else is a 400 (415 for another content type).
 */
export async function readMultipart(request: Request, maxBytes: number): Promise<MultipartPart[]> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new AppError("unsupported_media_type", "expected a multipart/form-data body");
  const bytes = await readBodyBytes(request, maxBytes);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("bad_request", "the multipart/form-data body cannot be parsed");
  }
  const parts: MultipartPart[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === "string") parts.push({ field, filename: null, bytes: Buffer.from(value) });
    else parts.push({ field, filename: value.name, bytes: Buffer.from(await value.arrayBuffer()) });
  }
  return parts;
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
