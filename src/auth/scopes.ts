/**
 * Roles and scopes, named as Sentry names them so API tokens made for Sentry tooling carry over.
 * A person's organisation role grants a set of scopes; an API token carries the scopes chosen when it
 * was made, and acts with those of them its owner's role still grants (so a demoted owner's token
 * loses admin rights at once).
 */
export const SCOPES = [
  "org:read",
  "org:write",
  "org:admin",
  "member:read",
  "member:write",
  "member:admin",
  "team:read",
  "team:write",
  "team:admin",
  "project:read",
  "project:write",
  "project:admin",
  "project:releases",
  "event:read",
  "event:write",
  "event:admin",
  "alerts:read",
  "alerts:write",
] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ["owner", "admin", "member", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/** Higher outranks lower: nobody may grant or remove a role above their own. */
export const ROLE_RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

const VIEWER: readonly Scope[] = ["org:read", "member:read", "team:read", "project:read", "event:read", "alerts:read"];
const MEMBER: readonly Scope[] = [...VIEWER, "event:write", "event:admin", "project:releases", "alerts:write"];
const ADMIN: readonly Scope[] = [
  ...MEMBER,
  "org:write",
  "member:write",
  "team:write",
  "team:admin",
  "project:write",
  "project:admin",
];

export const ROLE_SCOPES: Record<Role, ReadonlySet<Scope>> = {
  viewer: new Set(VIEWER),
  member: new Set(MEMBER),
  admin: new Set(ADMIN),
  owner: new Set(SCOPES),
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * Whether `granted` allows `required`. As in Sentry, `x:admin` includes `x:write`, which includes
 * `x:read`; `project:releases` stands alone.
 */
export function allows(granted: ReadonlySet<Scope>, required: Scope): boolean {
  if (granted.has(required)) return true;
  const [resource, level] = required.split(":") as [string, string];
  if (level === "read") return granted.has(`${resource}:write` as Scope) || granted.has(`${resource}:admin` as Scope);
  if (level === "write") return granted.has(`${resource}:admin` as Scope);
  return false;
}

/** The scopes a token acts with: those it carries that its owner's role also grants. */
export function effectiveScopes(role: Role, tokenScopes: readonly Scope[] | null): ReadonlySet<Scope> {
  const roleScopes = ROLE_SCOPES[role];
  if (tokenScopes === null) return roleScopes;
  return new Set(tokenScopes.filter((scope) => allows(roleScopes, scope)));
}

/**
 * Whether `granted` allows any of `required` (a route rule's scope or list of scopes): Sentry's
 * release endpoints take `project:releases` or `project:write`, and reads `project:read` too.
 */
export function allowsAny(granted: ReadonlySet<Scope>, required: Scope | readonly Scope[]): boolean {
  return typeof required === "string" ? allows(granted, required) : required.some((scope) => allows(granted, scope));
}

/** "project:releases" or ["project:releases", "project:write"] → "project:releases or project:write". */
export function describeScopes(required: Scope | readonly Scope[]): string {
  return typeof required === "string" ? required : required.join(" or ");
}
