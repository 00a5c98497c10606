/**
 * The guard of every page and server action. Pages call `requireUser` / `requireAccess` first: no
 * session → the login page (the setup page while no account exists); not a member → the 404 page.
 * Server actions call `actionAccess`, which checks the origin, the session and the scope again —
 * their arguments come from the browser, so nothing the page decided is trusted.
 */
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { appErrorOf, orNotFound } from "@/components/app-error";
import { CLIENT_IP_HEADER, SESSION_COOKIE } from "@/src/auth/cookies";
import type { Scope } from "@/src/auth/scopes";
import { AppError } from "@/src/errors";
import { getRuntime } from "@/src/runtime";
import { accessToOrganization, requireScope, type Access, type Principal } from "@/src/services/accounts/access";
import { actorOf, type Actor } from "@/src/services/accounts/actor";
import { authenticateSession } from "@/src/services/accounts/authenticate";
import { needsSetup } from "@/src/services/accounts/users";
import { loadWorkspace, type Workspace } from "@/src/services/ui/workspace";
import { isSameOrigin } from "./origin";

export type SessionPrincipal = Extract<Principal, { kind: "session" }>;

/** The signed-in person, or null. Only the session cookie counts: pages never accept API tokens. */
export async function currentPrincipal(): Promise<SessionPrincipal | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  if (!token) return null;
  const principal = await authenticateSession(getRuntime().storage, token, Date.now());
  return principal?.kind === "session" ? principal : null;
}

const BASE = "http://periscope.invalid";

/**
 * Where to come back after signing in: only a path on this site, never `//host` or a scheme. The
 * path comes back as the URL parser serialises it (percent-encoded ASCII), because a `Location`
 * header cannot carry characters above U+00FF (`next=/。evil.com` made the redirect throw).
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  if (/[\u0000-\u001f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith("//") ? null : path;
}

export function loginHref(next: string | null): string {
  const safe = safeNextPath(next);
  return safe && safe !== "/" ? `/login?next=${encodeURIComponent(safe)}` : "/login";
}

/** The signed-in person; otherwise a redirect to sign in (or to set up the first account). */
export async function requireUser(next: string): Promise<SessionPrincipal> {
  const principal = await currentPrincipal();
  if (principal) return principal;
  if (await needsSetup(getRuntime().storage)) redirect("/setup");
  redirect(loginHref(next));
}

/** The person's access to an organisation; a non-member (or an unknown organisation) gets the 404 page. */
export async function requireAccess(organizationSlug: string, next: string): Promise<Access> {
  const principal = await requireUser(next);
  try {
    return await accessToOrganization(getRuntime().storage, principal, organizationSlug);
  } catch (error) {
    if (appErrorOf(error)?.code === "not_found") notFound();
    throw error;
  }
}

export async function clientIp(): Promise<string | null> {
  return (await headers()).get(CLIENT_IP_HEADER) || null;
}

export async function actorFor(principal: Principal): Promise<Actor> {
  return actorOf(principal.user, await clientIp());
}

/**
 * For server actions: same origin, a live session, membership and (when given) the scope. Failures
 * are AppErrors, so the action can answer with the message instead of an error page.
 */
export async function actionPrincipal(): Promise<SessionPrincipal> {
  // Next checks Origin against Host for server actions already; this holds even if that changes.
  if (!isSameOrigin(await headers())) throw new AppError("forbidden", "This request did not come from a Periscope page.");
  const principal = await currentPrincipal();
  if (!principal) throw new AppError("unauthorized", "Your session has ended: sign in again.");
  return principal;
}

export async function actionAccess(organizationSlug: string, scope?: Scope | readonly Scope[]): Promise<{ access: Access; actor: Actor }> {
  const principal = await actionPrincipal();
  const access = await accessToOrganization(getRuntime().storage, principal, organizationSlug);
  if (scope) requireScope(access, scope);
  return { access, actor: await actorFor(principal) };
}

/** requireAccess plus the header's workspace (visible projects only); unknown projects are 404s. */
export async function requireWorkspace(organizationSlug: string, next: string, projectRef?: string): Promise<Workspace> {
  const access = await requireAccess(organizationSlug, next);
  return orNotFound(() => loadWorkspace(getRuntime().storage, access, projectRef));
}
