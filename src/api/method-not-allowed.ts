import { errorResponse } from "./handle";
import { AppError } from "../errors";

/**
 * For the methods a route does not serve: Next would answer 405 with an empty body; Sentry (Django
 * REST framework) answers with this detail, and every error here carries one.
 */
export function methodNotAllowed(request: Request): Response {
  return errorResponse(new AppError("method_not_allowed", `Method "${request.method}" not allowed.`));
}
