/**
 * One error type for everything the application reports on purpose. The code is a closed union so
 * the HTTP mapping in `httpStatusOf` is exhaustive: adding a code without a status fails to compile.
 */
export type AppErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "bad_gateway"
  | "unavailable";

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly causes: string[];
  /** Seconds the client should wait before retrying (429 and 503 answers carry it as Retry-After). */
  readonly retryAfterSeconds: number | null;

  constructor(code: AppErrorCode, message: string, causes: string[] = [], retryAfterSeconds: number | null = null) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.causes = causes;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export function httpStatusOf(code: AppErrorCode): number {
  switch (code) {
    case "bad_request":
      return 400;
    case "unauthorized":
      return 401;
    case "forbidden":
      return 403;
    case "not_found":
      return 404;
    case "method_not_allowed":
      return 405;
    case "conflict":
      return 409;
    case "payload_too_large":
      return 413;
    case "unsupported_media_type":
      return 415;
    case "rate_limited":
      return 429;
    case "bad_gateway":
      return 502;
    case "unavailable":
      return 503;
  }
}

/** Sentry-style error body: `{"detail": "...", "causes": [...]}` (causes only when there are any). */
export function errorBody(error: AppError): { detail: string; causes?: string[] } {
  return error.causes.length > 0 ? { detail: error.message, causes: error.causes } : { detail: error.message };
}
