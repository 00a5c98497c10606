/**
 * People, sessions and tokens for API tests, made through the accounts services in the test process
 * on the server's own storage (see TestServer.withStorage), and requests made as them.
 */
import assert from "node:assert/strict";
import { CSRF_HEADER, SESSION_COOKIE } from "../../src/auth/cookies";
import type { Role } from "../../src/auth/scopes";
import { CLI_ACTOR } from "../../src/services/accounts/actor";
import { startSession } from "../../src/services/accounts/login";
import { createApiToken } from "../../src/services/accounts/tokens";
import { createUser } from "../../src/services/accounts/users";
import type { User } from "../../src/model";
import type { Storage } from "../../src/storage/types";
import { readdressedEnvelope } from "./fixtures";
import type { TestServer } from "./server";

export const TEST_PASSWORD = "a long enough test password";

/** How a request authenticates: not at all, with a session cookie (and its CSRF token), or a Bearer token. */
export type Credentials =
  | { kind: "anonymous" }
  | { kind: "session"; userId: string; sessionToken: string; csrfToken: string }
  | { kind: "token"; userId: string; tokenId: string; token: string; scopes: readonly string[] };

export const ANONYMOUS: Credentials = { kind: "anonymous" };

export async function newUser(storage: Storage, email: string): Promise<User> {
  return createUser(storage, { email, password: TEST_PASSWORD });
}

/** Adds an existing user to an organisation with a role and to the given teams (by slug). */
export async function join(storage: Storage, organizationSlug: string, user: User, role: Role, teamSlugs: string[]): Promise<void> {
  const organization = await storage.organizations.getBySlug(organizationSlug);
  assert.ok(organization, `organisation ${organizationSlug}`);
  const member = await storage.accounts.members.add({ organizationId: organization.id, userId: user.id, role });
  for (const slug of teamSlugs) {
    const team = await storage.accounts.teams.getBySlug(organization.id, slug);
    assert.ok(team, `team ${slug}`);
    await storage.accounts.teams.addMember(team.id, member.id);
  }
}

export async function sessionOf(storage: Storage, user: User, ttlMs = 3_600_000): Promise<Credentials> {
  const { sessionToken, session } = await startSession(storage, user, Date.now(), ttlMs);
  return { kind: "session", userId: user.id, sessionToken, csrfToken: session.csrfToken };
}

export async function tokenOf(storage: Storage, user: User, scopes: readonly string[], name = "test token"): Promise<Credentials> {
  const { token, apiToken } = await createApiToken(storage, CLI_ACTOR, user, { name, scopes });
  return { kind: "token", userId: user.id, tokenId: apiToken.id, token, scopes };
}

/** Request headers for these credentials; cookie requests send the CSRF token unless `csrf` says otherwise. */
export function headersFor(credentials: Credentials, csrf: "right" | "none" | string = "right"): Headers {
  const headers = new Headers();
  if (credentials.kind === "token") headers.set("authorization", `Bearer ${credentials.token}`);
  if (credentials.kind === "session") {
    headers.set("cookie", `${SESSION_COOKIE}=${credentials.sessionToken}`);
    if (csrf === "right") headers.set(CSRF_HEADER, credentials.csrfToken);
    else if (csrf !== "none") headers.set(CSRF_HEADER, csrf);
  }
  return headers;
}

export interface Answer {
  status: number;
  body: unknown;
}

export async function request(
  server: TestServer,
  credentials: Credentials,
  method: string,
  path: string,
  body?: unknown,
  csrf: "right" | "none" | string = "right",
): Promise<Answer> {
  const headers = headersFor(credentials, csrf);
  if (body !== undefined) headers.set("content-type", "application/json");
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers,
    redirect: "manual",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) };
}

/** Sends a captured envelope to a project through its DSN key; returns the event id it carries. */
export async function ingest(server: TestServer, fixture: string, projectId: string, publicKey: string): Promise<string> {
  const { body, eventId } = readdressedEnvelope(fixture, { publicKey });
  const response = await fetch(`${server.baseUrl}/api/${projectId}/envelope/?sentry_key=${publicKey}`, { method: "POST", body: new Uint8Array(body) });
  assert.equal(response.status, 200, `ingest ${fixture}: ${await response.text()}`);
  return eventId;
}

/** Polls until `probe` returns a value (ingest writes in the background). */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
