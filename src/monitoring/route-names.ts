/**
 * Self-monitoring privacy: Periscope's own spans and events must not carry another organisation's
 * slug, an issue id or an invite secret in a URL or a name (`/organizations/org-b/issues` would be
 * readable by the default organisation's owner). Paths of this app become route names
 * (`/organizations/:org/issues/:issueId`) and lose their query and fragment before they are reported.
 * Plain code with no Node imports: the browser SDK setup uses it too.
 */

/** Every route of app/ with a dynamic segment, as `:name` (tests/unit/route-names.test.ts keeps it complete). */
export const ROUTE_PATTERNS = [
  "/organizations/:org",
  "/organizations/:org/issues",
  "/organizations/:org/issues/:issueId",
  "/organizations/:org/issues/:issueId/events",
  "/organizations/:org/issues/:issueId/events/:eventId",
  // Issue tags (issue 35): one tag's values.
  "/organizations/:org/issues/:issueId/tags/:key",
  "/organizations/:org/projects",
  "/organizations/:org/releases",
  "/organizations/:org/releases/:version",
  "/organizations/:org/stats",
  // Logs and attachments (issue 38).
  "/organizations/:org/logs",
  // Cron monitors and user feedback.
  "/organizations/:org/crons",
  "/organizations/:org/crons/:monitorSlug",
  "/organizations/:org/feedback",
  "/organizations/:org/feedback/:feedbackId",
  "/api/0/organizations/:org/monitors",
  "/api/0/organizations/:org/monitors/:monitorSlug",
  "/api/0/organizations/:org/monitors/:monitorSlug/checkins",
  "/api/0/projects/:org/:project/user-feedback",
  // Performance (issue 36)
  "/organizations/:org/performance",
  "/organizations/:org/performance/summary",
  "/organizations/:org/performance/vitals",
  "/organizations/:org/traces/:traceId",
  "/settings/:org",
  "/settings/:org/audit-log",
  "/settings/:org/members",
  "/settings/:org/projects",
  "/settings/:org/projects/:project",
  "/settings/:org/projects/:project/filters",
  "/settings/:org/projects/:project/keys",
  "/settings/:org/projects/:project/security",
  "/settings/:org/projects/:project/source-maps",
  // Organisation Security & Privacy (issue 33).
  "/settings/:org/security",
  "/settings/:org/teams",
  "/invite/:secret",
  "/auth/invite/:secret",
  "/api/0/api-tokens/:tokenId",
  "/api/0/issues/:issueId",
  "/api/0/issues/:issueId/events",
  // Issue workflow.
  "/api/0/issues/:issueId/comments",
  "/api/0/issues/:issueId/activities",
  "/api/0/issues/:issueId/hashes",
  "/api/0/issues/:issueId/events/:eventId",
  "/api/0/organizations/:org",
  "/api/0/organizations/:org/audit-logs",
  "/api/0/organizations/:org/events",
  "/api/0/organizations/:org/issues",
  "/api/0/organizations/:org/issues/:issueId",
  // Issue workflow.
  "/api/0/organizations/:org/issues/:issueId/hashes",
  "/api/0/organizations/:org/members",
  "/api/0/organizations/:org/projects",
  "/api/0/organizations/:org/sessions",
  "/api/0/organizations/:org/stats_v2",
  "/api/0/organizations/:org/teams",
  "/api/0/organizations/:org/trace/:traceId",
  "/api/0/organizations/:org/users",
  "/api/0/projects/:org/:project",
  "/api/0/projects/:org/:project/events/:eventId",
  // Attachments (issue 38).
  "/api/0/projects/:org/:project/events/:eventId/attachments",
  "/api/0/projects/:org/:project/events/:eventId/attachments/:attachmentId",
  "/api/0/projects/:org/:project/filters",
  "/api/0/projects/:org/:project/filters/:filterId",
  "/api/0/projects/:org/:project/issues",
  "/api/0/projects/:org/:project/keys",
  "/api/0/projects/:org/:project/keys/:keyId",
  "/api/0/teams/:org/:team/projects",
  "/api/0/organizations/:org/artifactbundle/assemble",
  "/api/0/organizations/:org/chunk-upload",
  "/api/0/organizations/:org/releases",
  "/api/0/organizations/:org/releases/:version",
  "/api/0/organizations/:org/releases/:version/commits",
  "/api/0/organizations/:org/releases/:version/deploys",
  "/api/0/organizations/:org/releases/:version/previous-with-commits",
  "/api/0/organizations/:org/repos",
  "/api/0/projects/:org/:project/releases",
  "/api/0/projects/:org/:project/releases/:version/files",
  // Issue search (issue 35): saved searches.
  "/api/0/organizations/:org/searches",
  "/api/0/organizations/:org/searches/:searchId",
  "/api/0/issues/:issueId/tags",
  "/api/0/issues/:issueId/tags/:key",
  "/api/0/issues/:issueId/tags/:key/values",
  // Quotas and spike protection (issue 33 item 4).
  "/settings/:org/quotas",
  "/settings/:org/projects/:project/quotas",
  "/api/0/organizations/:org/quotas",
  "/api/0/organizations/:org/spike-protections",
  "/api/0/projects/:org/:project/quotas",
  // Alerts (issue 34).
  "/organizations/:org/alerts",
  "/organizations/:org/alerts/:project",
  "/organizations/:org/alerts/:project/:ruleId",
  "/api/0/organizations/:org/issues/:issueId/alert-snooze",
  "/api/0/projects/:org/:project/rules",
  "/api/0/projects/:org/:project/rules/:ruleId",
  "/api/0/projects/:org/:project/rules/:ruleId/deliveries",
  "/api/0/projects/:org/:project/rules/:ruleId/snooze",
  "/api/0/projects/:org/:project/rules/:ruleId/test",
  // Metric alerts (issue 34 item 2).
  "/organizations/:org/alerts/:project/metric/:ruleId",
  "/api/0/organizations/:org/alert-rules",
  "/api/0/organizations/:org/alert-rules/:ruleId",
  "/api/0/organizations/:org/alert-rules/:ruleId/deliveries",
] as const;

const PATTERNS = ROUTE_PATTERNS.map((pattern) => pattern.split("/").slice(1));
/** First segments under which paths name organisations, issues, invites. */
const SCOPED = new Set(["organizations", "settings", "invite", "auth", "api"]);
/** Literal segments a path may keep when it matches no pattern (`/login`, `/api/0/organizations/`). */
const LITERALS = new Set(["api", "0", "auth", "login", "logout", "setup", "account", "monitoring", "test-hooks", ...PATTERNS.flat().filter((part) => !part.startsWith(":"))]);

/**
 * The route name of a path of this app: `/organizations/org-b/issues/7/` → `/organizations/:org/issues/:issueId/`.
 * A path under one of this app's scoped prefixes that no pattern matches keeps only the segments the
 * app names itself (any other becomes `:param`); other paths (`/login`, a mistyped `/x`) are kept.
 */
export function routeNameOf(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? "";
  const trailing = bare.length > 1 && bare.endsWith("/") ? "/" : "";
  const parts = bare.split("/").slice(1);
  if (trailing) parts.pop();
  const pattern = PATTERNS.find((candidate) => candidate.length === parts.length && candidate.every((part, index) => part.startsWith(":") || part === parts[index]));
  const scoped = SCOPED.has(parts[0] ?? "");
  const named = pattern ?? (scoped ? parts.map((part) => (part === "" || LITERALS.has(part) ? part : ":param")) : parts);
  return `/${named.join("/")}${trailing}`;
}

/** Paths of this app inside free text: span descriptions (`GET /api/0/…`), URLs, breadcrumb data. */
const APP_PATH =
  /(?:(https?:\/\/[^/\s?#"'<>]+)|(?<![\w.:/-]))(\/(?:organizations|settings|invite|auth\/invite|api\/0)(?=[/?#\s"'<>]|$)(?:\/[^\s?#"'<>]*)?(?:\?[^\s#"'<>]*)?(?:#[^\s"'<>]*)?)/g;

/** A full URL's query and fragment (`/login?next=/organizations/org-b`): dropped whatever the path. */
const URL_QUERY = /(https?:\/\/[^\s?#"'<>]+)[?#][^\s"'<>]*/g;

/** Text with each path of this app (alone or in a URL) replaced by its route name, query and fragment dropped. */
export function scrubAppPaths(text: string): string {
  if (!text.includes("/")) return text;
  return text.replace(APP_PATH, (_match, origin: string | undefined, path: string) => `${origin ?? ""}${routeNameOf(path)}`).replace(URL_QUERY, "$1");
}

/** Span attributes and request fields that hold a query string on their own. */
const QUERY_KEYS = new Set(["url.query", "http.query", "query_string", "http.fragment", "url.fragment"]);

/**
 * Every string in an SDK event or span (transaction names, span descriptions and data, request URLs,
 * breadcrumbs, tags) with this app's paths turned into route names. Changes the value in place and
 * walks only plain objects and arrays: the SDK's own metadata holds class instances (scopes).
 */
export function scrubEventPaths<T>(value: T, depth = 0): T {
  if (depth > 12 || value === null || typeof value !== "object") return value;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key === "sdkProcessingMetadata") continue;
    if (QUERY_KEYS.has(key)) {
      delete record[key];
      continue;
    }
    const item = record[key];
    if (typeof item === "string") record[key] = scrubAppPaths(item);
    else if (item !== null && typeof item === "object") scrubEventPaths(item, depth + 1);
  }
  return value;
}
