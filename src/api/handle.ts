/**
 * The one place where `/api/0` route handlers turn results and errors into HTTP. Every failure
 * answers Sentry's error shape `{"detail": "..."}` with the status `httpStatusOf` assigns; anything
 * that is not an `AppError` is a bug, logged here and answered as a plain 500.
 */
import { AppError, errorBody, httpStatusOf, type AppErrorCode } from "../errors";
import { peekRuntime } from "../runtime";

export interface RouteContext<Params> {
  params: Promise<Params>;
}

type Handler<Params> = (request: Request, params: Params) => Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers });
}

/**
 * Next bundles its own copy of src/errors.ts, while storage runs on the copy server.ts loaded, so an
 * AppError thrown inside storage (a bad cursor, say) is not `instanceof` this module's class. It is
 * recognised by shape instead and rebuilt here.
 */
function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (!(error instanceof Error) || error.name !== "AppError") return null;
  const { code, causes, retryAfterSeconds } = error as Partial<AppError>;
  if (typeof code !== "string" || httpStatusOf(code as AppErrorCode) === undefined) return null;
  return new AppError(
    code as AppErrorCode,
    error.message,
    Array.isArray(causes) ? causes.map(String) : [],
    typeof retryAfterSeconds === "number" ? retryAfterSeconds : null,
  );
}

export function errorResponse(thrown: unknown): Response {
  const error = asAppError(thrown);
  if (error) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== null) headers["Retry-After"] = String(error.retryAfterSeconds);
    return json(errorBody(error), httpStatusOf(error.code), headers);
  }
  // Caught here, so Next's onRequestError never sees it: report it to self-monitoring directly.
  const runtime = peekRuntime();
  if (runtime) void runtime.captureServerException(thrown, { mechanism: "api" });
  else console.error("unhandled error in /api/0 handler", thrown);
  return json({ detail: "internal server error" }, 500);
}

/** Wraps a route handler: resolves Next's params promise and maps thrown errors to responses. */
export function handle<Params>(handler: Handler<Params>) {
  return async (request: Request, context: RouteContext<Params>): Promise<Response> => {
    try {
      return await handler(request, await context.params);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
