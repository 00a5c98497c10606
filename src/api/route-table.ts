/**
 * Every `/api/0` route Periscope serves, in one list, with what it takes to call it. Route files
 * can only declare their handlers through `apiRoutes` (src/api/route.ts), which looks each rule up
 * here, and the authorisation matrix test (tests/integration/authz-matrix.test.ts) is generated from
 * this list and checked against the route files on disk, so a route cannot be added unprotected.
 *
 * Scopes are Sentry's for the same endpoint, so tokens made for Sentry tooling keep working.
 *
 * - `organization`: the path names an organisation (`{org}`), or an issue (`{issueId}`) whose
 *   project's organisation is meant. The caller must be a member (else 404, as if it did not exist),
 *   must hold the scope (else 403), and handlers answer 404 for projects the caller's teams do not own.
 * - `user`: about the caller themselves (their organisations, their tokens). Only authentication is
 *   needed, plus the scope for tokens when one is named; `sessionOnly` refuses API tokens (403).
 */
import type { Scope } from "../auth/scopes";

/** The methods route files export; Next derives HEAD from GET and answers OPTIONS itself. */
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One scope, or a list of which any one will do. */
export type RouteScope = Scope | readonly Scope[];

export type RouteRule =
  | { level: "organization"; scope: RouteScope }
  | { level: "user"; scope: RouteScope | null; sessionOnly?: boolean };

// Sentry's release permission: reads with project:read or project:releases, changes with
// project:releases or project:write (admin scopes include write, write includes read).
const RELEASE_READ = ["project:read", "project:releases"] as const satisfies readonly Scope[];
const RELEASE_WRITE = ["project:releases", "project:write"] as const satisfies readonly Scope[];

// Sentry's OrganizationAlertRulePermission: reads with org:read or alerts:read, changes with org:write or alerts:write.
const ALERT_READ = ["org:read", "alerts:read"] as const satisfies readonly Scope[];
const ALERT_WRITE = ["org:write", "alerts:write"] as const satisfies readonly Scope[];

export const ROUTES = {
  // sentry-cli's `info` and every command's token check: who the token belongs to and its scopes.
  "GET /api/0/": { level: "user", scope: null },
  "GET /api/0/organizations/": { level: "user", scope: "org:read" },
  // Details with the data scrubbing settings; PUT changes those (Sentry's scopes for these endpoints).
  "GET /api/0/organizations/{org}/": { level: "organization", scope: "org:read" },
  "PUT /api/0/organizations/{org}/": { level: "organization", scope: "org:write" },
  "GET /api/0/projects/{org}/{project}/": { level: "organization", scope: "project:read" },
  "PUT /api/0/projects/{org}/{project}/": { level: "organization", scope: "project:write" },
  "GET /api/0/organizations/{org}/projects/": { level: "organization", scope: "project:read" },
  "GET /api/0/organizations/{org}/issues/": { level: "organization", scope: "event:read" },
  "GET /api/0/organizations/{org}/issues/{issueId}/": { level: "organization", scope: "event:read" },
  "PUT /api/0/organizations/{org}/issues/{issueId}/": { level: "organization", scope: "event:write" },
  "GET /api/0/organizations/{org}/events/": { level: "organization", scope: "event:read" },
  "GET /api/0/organizations/{org}/sessions/": { level: "organization", scope: "org:read" },
  "GET /api/0/organizations/{org}/stats_v2/": { level: "organization", scope: "org:read" },
  "GET /api/0/organizations/{org}/trace/{traceId}/": { level: "organization", scope: "event:read" },
  "GET /api/0/organizations/{org}/members/": { level: "organization", scope: "member:read" },
  // Issue search (issue 35): saved searches; sharing one with the organisation needs org:write (service).
  "GET /api/0/organizations/{org}/searches/": { level: "organization", scope: "org:read" },
  "POST /api/0/organizations/{org}/searches/": { level: "organization", scope: "org:read" },
  "PUT /api/0/organizations/{org}/searches/{searchId}/": { level: "organization", scope: "org:read" },
  "DELETE /api/0/organizations/{org}/searches/{searchId}/": { level: "organization", scope: "org:read" },
  // Issue tags (issue 35): Sentry's issue tag endpoints.
  "GET /api/0/issues/{issueId}/tags/": { level: "organization", scope: "event:read" },
  "GET /api/0/issues/{issueId}/tags/{key}/": { level: "organization", scope: "event:read" },
  "GET /api/0/issues/{issueId}/tags/{key}/values/": { level: "organization", scope: "event:read" },
  "GET /api/0/organizations/{org}/users/": { level: "organization", scope: "member:read" },
  "GET /api/0/organizations/{org}/teams/": { level: "organization", scope: "team:read" },
  "GET /api/0/organizations/{org}/audit-logs/": { level: "organization", scope: "org:write" },
  "GET /api/0/organizations/{org}/releases/": { level: "organization", scope: RELEASE_READ },
  "POST /api/0/organizations/{org}/releases/": { level: "organization", scope: RELEASE_WRITE },
  "GET /api/0/organizations/{org}/releases/{version}/": { level: "organization", scope: RELEASE_READ },
  "PUT /api/0/organizations/{org}/releases/{version}/": { level: "organization", scope: RELEASE_WRITE },
  "DELETE /api/0/organizations/{org}/releases/{version}/": { level: "organization", scope: RELEASE_WRITE },
  "GET /api/0/organizations/{org}/releases/{version}/commits/": { level: "organization", scope: RELEASE_READ },
  "GET /api/0/organizations/{org}/releases/{version}/previous-with-commits/": { level: "organization", scope: RELEASE_READ },
  "GET /api/0/organizations/{org}/releases/{version}/deploys/": { level: "organization", scope: RELEASE_READ },
  "POST /api/0/organizations/{org}/releases/{version}/deploys/": { level: "organization", scope: RELEASE_WRITE },
  "GET /api/0/organizations/{org}/repos/": { level: "organization", scope: "org:read" },
  "POST /api/0/organizations/{org}/repos/": { level: "organization", scope: RELEASE_WRITE },
  "GET /api/0/organizations/{org}/chunk-upload/": { level: "organization", scope: RELEASE_WRITE },
  "POST /api/0/organizations/{org}/chunk-upload/": { level: "organization", scope: RELEASE_WRITE },
  "POST /api/0/organizations/{org}/artifactbundle/assemble/": { level: "organization", scope: RELEASE_WRITE },
  "GET /api/0/projects/{org}/{project}/releases/": { level: "organization", scope: RELEASE_READ },
  "GET /api/0/projects/{org}/{project}/releases/{version}/files/": { level: "organization", scope: RELEASE_READ },
  "POST /api/0/projects/{org}/{project}/releases/{version}/files/": { level: "organization", scope: RELEASE_WRITE },
  "GET /api/0/issues/{issueId}/": { level: "organization", scope: "event:read" },
  "PUT /api/0/issues/{issueId}/": { level: "organization", scope: "event:write" },
  "GET /api/0/issues/{issueId}/events/": { level: "organization", scope: "event:read" },
  "GET /api/0/issues/{issueId}/events/{eventId}/": { level: "organization", scope: "event:read" },
  "GET /api/0/projects/{org}/{project}/issues/": { level: "organization", scope: "event:read" },
  // Issue workflow: comments, activity, hashes (unmerge), bulk changes.
  "GET /api/0/issues/{issueId}/hashes/": { level: "organization", scope: "event:read" },
  "DELETE /api/0/issues/{issueId}/hashes/": { level: "organization", scope: "event:write" },
  "DELETE /api/0/issues/{issueId}/": { level: "organization", scope: "event:admin" },
  "DELETE /api/0/organizations/{org}/issues/{issueId}/": { level: "organization", scope: "event:admin" },
  "GET /api/0/organizations/{org}/issues/{issueId}/hashes/": { level: "organization", scope: "event:read" },
  "DELETE /api/0/organizations/{org}/issues/{issueId}/hashes/": { level: "organization", scope: "event:write" },
  "PUT /api/0/projects/{org}/{project}/issues/": { level: "organization", scope: "event:write" },
  "DELETE /api/0/projects/{org}/{project}/issues/": { level: "organization", scope: "event:admin" },
  "PUT /api/0/organizations/{org}/issues/": { level: "organization", scope: "event:write" },
  "DELETE /api/0/organizations/{org}/issues/": { level: "organization", scope: "event:admin" },
  "GET /api/0/issues/{issueId}/comments/": { level: "organization", scope: "event:read" },
  "POST /api/0/issues/{issueId}/comments/": { level: "organization", scope: "event:write" },
  "GET /api/0/issues/{issueId}/activities/": { level: "organization", scope: "event:read" },
  "GET /api/0/projects/{org}/{project}/events/{eventId}/": { level: "organization", scope: "event:read" },
  // Attachments (issue 38).
  "GET /api/0/projects/{org}/{project}/events/{eventId}/attachments/": { level: "organization", scope: "event:read" },
  "GET /api/0/projects/{org}/{project}/events/{eventId}/attachments/{attachmentId}/": { level: "organization", scope: "event:read" },
  "GET /api/0/projects/{org}/{project}/keys/": { level: "organization", scope: "project:read" },
  "POST /api/0/projects/{org}/{project}/keys/": { level: "organization", scope: "project:write" },
  "GET /api/0/projects/{org}/{project}/keys/{keyId}/": { level: "organization", scope: "project:read" },
  "PUT /api/0/projects/{org}/{project}/keys/{keyId}/": { level: "organization", scope: "project:write" },
  // Sentry's ProjectKeyPermission: revoking a key needs project:admin.
  "DELETE /api/0/projects/{org}/{project}/keys/{keyId}/": { level: "organization", scope: "project:admin" },
  "GET /api/0/projects/{org}/{project}/filters/": { level: "organization", scope: "project:read" },
  "PUT /api/0/projects/{org}/{project}/filters/{filterId}/": { level: "organization", scope: "project:write" },
  // Quotas and spike protection (issue 33 item 4); Sentry's scopes for spike-protections.
  "GET /api/0/projects/{org}/{project}/quotas/": { level: "organization", scope: "project:read" },
  "PUT /api/0/projects/{org}/{project}/quotas/": { level: "organization", scope: "project:write" },
  "GET /api/0/organizations/{org}/quotas/": { level: "organization", scope: "org:read" },
  "PUT /api/0/organizations/{org}/quotas/": { level: "organization", scope: "org:write" },
  "POST /api/0/organizations/{org}/spike-protections/": { level: "organization", scope: "project:write" },
  "DELETE /api/0/organizations/{org}/spike-protections/": { level: "organization", scope: "project:write" },
  "POST /api/0/teams/{org}/{team}/projects/": { level: "organization", scope: "project:write" },
  // Cron monitors (Sentry's monitor permission) and user feedback (Sentry's project event permission).
  "GET /api/0/organizations/{org}/monitors/": { level: "organization", scope: "project:read" },
  "POST /api/0/organizations/{org}/monitors/": { level: "organization", scope: "project:write" },
  "GET /api/0/organizations/{org}/monitors/{monitorSlug}/": { level: "organization", scope: "project:read" },
  "PUT /api/0/organizations/{org}/monitors/{monitorSlug}/": { level: "organization", scope: "project:write" },
  "DELETE /api/0/organizations/{org}/monitors/{monitorSlug}/": { level: "organization", scope: "project:write" },
  "GET /api/0/organizations/{org}/monitors/{monitorSlug}/checkins/": { level: "organization", scope: "project:read" },
  "GET /api/0/projects/{org}/{project}/user-feedback/": { level: "organization", scope: "event:read" },
  "POST /api/0/projects/{org}/{project}/user-feedback/": { level: "organization", scope: "event:write" },
  // Alerts (issue 34): Sentry's issue alert rule routes, with the delivery log, test and mute.
  "GET /api/0/projects/{org}/{project}/rules/": { level: "organization", scope: "project:read" },
  "POST /api/0/projects/{org}/{project}/rules/": { level: "organization", scope: "project:write" },
  "GET /api/0/projects/{org}/{project}/rules/{ruleId}/": { level: "organization", scope: "project:read" },
  "PUT /api/0/projects/{org}/{project}/rules/{ruleId}/": { level: "organization", scope: "project:write" },
  "DELETE /api/0/projects/{org}/{project}/rules/{ruleId}/": { level: "organization", scope: "project:write" },
  "POST /api/0/projects/{org}/{project}/rules/{ruleId}/snooze/": { level: "organization", scope: "project:write" },
  "DELETE /api/0/projects/{org}/{project}/rules/{ruleId}/snooze/": { level: "organization", scope: "project:write" },
  "POST /api/0/projects/{org}/{project}/rules/{ruleId}/test/": { level: "organization", scope: "project:write" },
  "GET /api/0/projects/{org}/{project}/rules/{ruleId}/deliveries/": { level: "organization", scope: "project:read" },
  "GET /api/0/organizations/{org}/issues/{issueId}/alert-snooze/": { level: "organization", scope: "event:read" },
  "POST /api/0/organizations/{org}/issues/{issueId}/alert-snooze/": { level: "organization", scope: "event:write" },
  "DELETE /api/0/organizations/{org}/issues/{issueId}/alert-snooze/": { level: "organization", scope: "event:write" },
  // Metric alerts (issue 34 item 2): Sentry's organisation alert-rule routes and permission.
  "GET /api/0/organizations/{org}/alert-rules/": { level: "organization", scope: ALERT_READ },
  "POST /api/0/organizations/{org}/alert-rules/": { level: "organization", scope: ALERT_WRITE },
  "GET /api/0/organizations/{org}/alert-rules/{ruleId}/": { level: "organization", scope: ALERT_READ },
  "PUT /api/0/organizations/{org}/alert-rules/{ruleId}/": { level: "organization", scope: ALERT_WRITE },
  "DELETE /api/0/organizations/{org}/alert-rules/{ruleId}/": { level: "organization", scope: ALERT_WRITE },
  "GET /api/0/organizations/{org}/alert-rules/{ruleId}/deliveries/": { level: "organization", scope: ALERT_READ },
  "GET /api/0/api-tokens/": { level: "user", scope: null },
  // A token cannot mint tokens (as in Sentry): a leaked token must not be able to outlive its revocation.
  "POST /api/0/api-tokens/": { level: "user", scope: null, sessionOnly: true },
  "DELETE /api/0/api-tokens/{tokenId}/": { level: "user", scope: null },
} as const satisfies Record<string, RouteRule>;

export type RouteKey = keyof typeof ROUTES;
export type OrganizationRouteKey = { [K in RouteKey]: (typeof ROUTES)[K]["level"] extends "organization" ? K : never }[RouteKey];
export type UserRouteKey = Exclude<RouteKey, OrganizationRouteKey>;

type ParamNames<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** `"GET /api/0/issues/{issueId}/"` → `{ issueId: string }`: the names match the route folders' `[issueId]`. */
export type ParamsOf<Key extends string> = { [Name in ParamNames<Key>]: string };

export function ruleOf(key: RouteKey): RouteRule {
  return ROUTES[key];
}

export function routeKeys(): RouteKey[] {
  return Object.keys(ROUTES) as RouteKey[];
}
