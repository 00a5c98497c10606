/**
 * The one place where `/api/0` route handlers turn results and errors into HTTP. Every failure
 * answers Sentry's error shape `{"detail": "..."}` with the status `httpStatusOf` assigns; anything
 * that is not an `AppError` is a bug, logged here and answered as a plain 500.
 */
import { AppError, errorBody, httpStatusOf } from "../errors";

export interface RouteContext<Params> {
  params: Promise<Params>;
}

type Handler<Params> = (request: Request, params: Params) => Promise<Response>;

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== null) headers["Retry-After"] = String(error.retryAfterSeconds);
    return json(errorBody(error), httpStatusOf(error.code), headers);
  }
  console.error("unhandled error in /api/0 handler", error);
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
