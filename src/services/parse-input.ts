import type { z } from "zod";
import { AppError } from "../errors";

/** Each zod issue as "field: problem" (the field is not repeated when the message already names it). */
export function issueMessages(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.join(".");
    return field === "" || issue.message.startsWith(`${field}:`) ? issue.message : `${field}: ${issue.message}`;
  });
}

/** Validates a service's input: the parsed value, or a 400 naming every field that is wrong. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("bad_request", issueMessages(parsed.error).join("; "));
  return parsed.data;
}
