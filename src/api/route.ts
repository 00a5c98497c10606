/**
 * The only way `/api/0` routes are declared. A route file names its path and a handler for each
 * method the route table (src/api/route-table.ts) lists for that path:
 *
 *     export const { GET, POST, PUT, PATCH, DELETE } = apiRoutes("/api/0/api-tokens/", { GET: …, POST: … });
 *
 * The types require exactly the table's methods for the path; every other method answers Sentry's
 * 405 (`{"detail": "Method \"PUT\" not allowed."}`), where Next would answer an empty body. Each
 * handler runs only after its rule passes: the request is authenticated, and for organisation
 * routes the caller's access to the organisation the path names (or the organisation of the issue
 * it names) is resolved and the scope enforced. Handlers still decide per project
 * (`requireProject`, `visibleProjects`), because only they know which projects a request touches.
 */
import { allowsAny, describeScopes } from "../auth/scopes";
import { AppError } from "../errors";
import { getRuntime, type Runtime } from "../runtime";
import { accessTo, accessToOrganization, requireScope, type Access, type Principal } from "../services/accounts/access";
import { actorOf, type Actor } from "../services/accounts/actor";
import { organizationOfIssue } from "../services/issues/get-issue";
import { authenticateRequest, clientIpOfRequest } from "./auth";
import { handle, type RouteContext } from "./handle";
import { methodNotAllowed } from "./method-not-allowed";
import { HTTP_METHODS, ROUTES, type HttpMethod, type OrganizationRouteKey, type ParamsOf, type RouteKey, type UserRouteKey } from "./route-table";

export interface UserContext {
  runtime: Runtime;
  principal: Principal;
  /** For the audit log: the person and the client's address. */
  actor: Actor;
}

export interface ApiContext extends UserContext {
  access: Access;
}

type RouteHandler<Key extends string, Context> = (request: Request, params: ParamsOf<Key>, context: Context) => Promise<Response>;

async function authenticated(request: Request): Promise<UserContext> {
  const runtime = getRuntime();
  const principal = await authenticateRequest(request, runtime.storage, Date.now());
  return { runtime, principal, actor: actorOf(principal.user, clientIpOfRequest(request)) };
}

function isNotFound(error: unknown): boolean {
  // Storage errors come from server.ts's copy of AppError (see handle.ts), so match by shape.
  return error instanceof Error && error.name === "AppError" && (error as { code?: unknown }).code === "not_found";
}

/**
 * The organisation a path is about. Paths without `{org}` name an issue: its project's organisation,
 * where a non-member hears "issue not found" — the same answer as for an issue that does not exist.
 */
async function accessFor(context: UserContext, params: { org?: string; issueId?: string }): Promise<Access> {
  const { storage } = context.runtime;
  if (params.org !== undefined) return accessToOrganization(storage, context.principal, params.org);
  if (params.issueId === undefined) throw new Error("organisation route without {org} or {issueId}");
  const organization = await organizationOfIssue(storage, params.issueId);
  try {
    return await accessTo(storage, context.principal, organization);
  } catch (error) {
    if (isNotFound(error)) throw new AppError("not_found", "issue not found");
    throw error;
  }
}

function apiRoute<Key extends OrganizationRouteKey>(key: Key, handler: RouteHandler<Key, ApiContext>) {
  const rule = ROUTES[key];
  return handle<ParamsOf<Key>>(async (request, params) => {
    const context = await authenticated(request);
    const access = await accessFor(context, params as { org?: string; issueId?: string });
    requireScope(access, rule.scope);
    return handler(request, params, { ...context, access });
  });
}

function userRoute<Key extends UserRouteKey>(key: Key, handler: RouteHandler<Key, UserContext>) {
  const rule: (typeof ROUTES)[RouteKey] = ROUTES[key];
  return handle<ParamsOf<Key>>(async (request, params) => {
    const context = await authenticated(request);
    const { principal } = context;
    if (principal.kind === "token") {
      if ("sessionOnly" in rule && rule.sessionOnly) {
        throw new AppError("forbidden", "This endpoint needs a signed-in session: API tokens cannot use it");
      }
      if (rule.scope !== null && !allowsAny(new Set(principal.token.scopes), rule.scope)) {
        throw new AppError("forbidden", `You do not have permission to perform this action: it needs the ${describeScopes(rule.scope)} scope, which this token does not grant`);
      }
    }
    return handler(request, params, context);
  });
}

/** `"GET /api/0/issues/{issueId}/"` → `"/api/0/issues/{issueId}/"`. */
type PathOf<Key extends string> = Key extends `${HttpMethod} ${infer Path}` ? Path : never;
export type RoutePath = PathOf<RouteKey>;
type MethodsOf<Path extends RoutePath> = { [Key in RouteKey]: Key extends `${infer Method} ${Path}` ? Method : never }[RouteKey];
type ContextOf<Key extends RouteKey> = Key extends OrganizationRouteKey ? ApiContext : UserContext;
type HandlersOf<Path extends RoutePath> = {
  [Method in MethodsOf<Path>]: RouteHandler<`${Method} ${Path}`, ContextOf<`${Method} ${Path}` & RouteKey>>;
};
/** What Next calls for each method of a route file. */
export type NextRouteHandler<Path extends string> = (request: Request, context: RouteContext<ParamsOf<Path>>) => Promise<Response>;

function isRouteKey(key: string): key is RouteKey {
  return Object.hasOwn(ROUTES, key);
}

/** Every HTTP method Next routes for `path`: the table's ones wrapped by their rule, the rest 405. */
export function apiRoutes<Path extends RoutePath>(path: Path, handlers: HandlersOf<Path>): Record<HttpMethod, NextRouteHandler<Path>> {
  // HandlersOf<Path> ties each method's handler to its key's level; indexing by a runtime method loses that.
  const served: Partial<Record<string, unknown>> = handlers;
  const route = (method: HttpMethod): NextRouteHandler<Path> => {
    const key = `${method} ${path}`;
    const handler = served[method];
    if (!isRouteKey(key)) {
      if (handler) throw new Error(`${key} is not in the route table (src/api/route-table.ts)`);
      return async (request) => methodNotAllowed(request);
    }
    if (!handler) throw new Error(`${key} is in the route table but its route file gives no handler`);
    const rule = ROUTES[key];
    const wrapped =
      rule.level === "organization"
        ? apiRoute(key as OrganizationRouteKey, handler as RouteHandler<OrganizationRouteKey, ApiContext>)
        : userRoute(key as UserRouteKey, handler as RouteHandler<UserRouteKey, UserContext>);
    return wrapped as NextRouteHandler<Path>;
  };
  return Object.fromEntries(HTTP_METHODS.map((method) => [method, route(method)])) as Record<HttpMethod, NextRouteHandler<Path>>;
}
