import type { z } from "zod";
import { AppError } from "../errors";

/**
 * Reads a JSON request body and validates it. An empty body counts as `{}` (Sentry's endpoints
 * accept that for optional-only bodies); malformed JSON and schema failures are 400s naming the field.
 */
export async function readJsonBody<Schema extends z.ZodType>(request: Request, schema: Schema): Promise<z.output<Schema>> {
  const text = await request.text();
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
  const causes = parsed.error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message,
  );
  throw new AppError("bad_request", `invalid request body: ${causes.join("; ")}`, causes);
}
