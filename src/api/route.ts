/**
 * The only way `/api/0` handlers are written. `apiRoute(key, handler)` takes the route's rule from
 * the route table, authenticates the request, resolves the caller's access to the organisation the
 * path names (or the organisation of the issue it names), enforces the scope, and only then runs
 * the handler with that Access. Handlers still decide per project (`requireProject`,
 * `visibleProjects`), because only they know which projects a request touches.
 */
import { allows } from "../auth/scopes";
import { AppError } from "../errors";
import { getRuntime, type Runtime } from "../runtime";
import { accessTo, accessToOrganization, requireScope, type Access, type Principal } from "../services/accounts/access";
import { actorOf, type Actor } from "../services/accounts/actor";
import { getIssue } from "../services/issues/get-issue";
import type { Organization } from "../model";
import { authenticateRequest, clientIpOfRequest } from "./auth";
import { handle } from "./handle";
import { ROUTES, type OrganizationRouteKey, type ParamsOf, type RouteKey, type UserRouteKey } from "./route-table";

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
  const { project } = await getIssue(storage, params.issueId);
  const organization: Organization | null = await storage.organizations.getById(project.organizationId);
  if (!organization) throw new AppError("not_found", "issue not found");
  try {
    return await accessTo(storage, context.principal, organization);
  } catch (error) {
    if (isNotFound(error)) throw new AppError("not_found", "issue not found");
    throw error;
  }
}

export function apiRoute<Key extends OrganizationRouteKey>(key: Key, handler: RouteHandler<Key, ApiContext>) {
  const rule = ROUTES[key];
  return handle<ParamsOf<Key>>(async (request, params) => {
    const context = await authenticated(request);
    const access = await accessFor(context, params as { org?: string; issueId?: string });
    requireScope(access, rule.scope);
    return handler(request, params, { ...context, access });
  });
}

export function userRoute<Key extends UserRouteKey>(key: Key, handler: RouteHandler<Key, UserContext>) {
  const rule: (typeof ROUTES)[RouteKey] = ROUTES[key];
  return handle<ParamsOf<Key>>(async (request, params) => {
    const context = await authenticated(request);
    const { principal } = context;
    if (principal.kind === "token") {
      if ("sessionOnly" in rule && rule.sessionOnly) {
        throw new AppError("forbidden", "This endpoint needs a signed-in session: API tokens cannot use it");
      }
      if (rule.scope !== null && !allows(new Set(principal.token.scopes), rule.scope)) {
        throw new AppError("forbidden", `You do not have permission to perform this action: it needs the ${rule.scope} scope, which this token does not grant`);
      }
    }
    return handler(request, params, context);
  });
}
