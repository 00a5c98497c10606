/**
 * The organisation the authorisation tests run against. In "default": teams alpha and beta, each
 * owning one project with one issue (one event); a transaction (trace) in alpha's project; a viewer
 * and a member on team alpha, a member on team beta only, an admin on no team, and the bootstrapped
 * owner. A second organisation "other" has its own owner (a member nowhere else), project, issue,
 * event and trace, for the isolation tests.
 */
import assert from "node:assert/strict";
import { SCOPES } from "../../src/auth/scopes";
import type { User } from "../../src/model";
import { eventually, ingest, join, newUser, request, sessionOf, tokenOf, type Credentials } from "./accounts";
import { OWNER_EMAIL, type TestServer } from "./server";

export interface ProjectFixture {
  id: string;
  slug: string;
  organizationSlug: string;
  publicKey: string;
  issueId: string;
  eventId: string;
}

export type PersonName = "owner" | "admin" | "member" | "viewer" | "betaMember" | "otherOwner";

export interface AuthzFixture {
  users: Record<PersonName, User>;
  sessions: Record<PersonName, Credentials>;
  ownerToken: Credentials;
  otherOwnerToken: Credentials;
  alpha: ProjectFixture;
  beta: ProjectFixture;
  other: ProjectFixture;
  /** A trace with spans only in alpha's project. */
  alphaTraceId: string;
  /** A trace with spans only in the other organisation's project. */
  otherTraceId: string;
}

export const ALPHA_TRACE_ID = "4bddb5d20d374b71a02df49c8986826d";
export const OTHER_TRACE_ID = "76f26e1ce508493c8293f47876967921";

async function createProject(server: TestServer, as: Credentials, organizationSlug: string, team: string, slug: string) {
  const created = await request(server, as, "POST", `/api/0/teams/${organizationSlug}/${team}/projects/`, { name: slug, slug });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const project = created.body as { id: string; slug: string };
  const keys = await request(server, as, "GET", `/api/0/projects/${organizationSlug}/${slug}/keys/`);
  const [key] = keys.body as { public: string }[];
  assert.ok(key);
  return { id: project.id, slug: project.slug, organizationSlug, publicKey: key.public };
}

async function withIssue(server: TestServer, as: Credentials, project: Omit<ProjectFixture, "issueId" | "eventId">): Promise<ProjectFixture> {
  const eventId = await ingest(server, "node-message", project.id, project.publicKey);
  const issueId = await eventually(`the issue in ${project.slug}`, async () => {
    const answer = await request(server, as, "GET", `/api/0/projects/${project.organizationSlug}/${project.slug}/issues/?query=`);
    const issues = answer.body as { id: string }[];
    return answer.status === 200 && issues.length === 1 ? issues[0]!.id : undefined;
  });
  return { ...project, issueId, eventId };
}

export async function createAuthzFixture(server: TestServer): Promise<AuthzFixture> {
  const people = await server.withStorage(async (storage) => {
    const owner = await storage.accounts.users.getByEmail(OWNER_EMAIL);
    assert.ok(owner);
    const defaultOrganization = await storage.organizations.getBySlug("default");
    assert.ok(defaultOrganization);
    for (const slug of ["alpha", "beta"]) await storage.accounts.teams.create({ organizationId: defaultOrganization.id, slug, name: slug });
    const other = await storage.organizations.create({ slug: "other", name: "Other organization" });
    await storage.accounts.teams.create({ organizationId: other.id, slug: "other-team", name: "Other team" });

    const users: Record<PersonName, User> = {
      owner,
      admin: await newUser(storage, "admin@example.com"),
      member: await newUser(storage, "member@example.com"),
      viewer: await newUser(storage, "viewer@example.com"),
      betaMember: await newUser(storage, "beta@example.com"),
      otherOwner: await newUser(storage, "other-owner@example.com"),
    };
    await join(storage, "default", users.admin, "admin", []);
    await join(storage, "default", users.member, "member", ["alpha"]);
    await join(storage, "default", users.viewer, "viewer", ["alpha"]);
    await join(storage, "default", users.betaMember, "member", ["beta"]);
    await join(storage, "other", users.otherOwner, "owner", ["other-team"]);
    const sessions = {} as Record<PersonName, Credentials>;
    for (const name of Object.keys(users) as PersonName[]) sessions[name] = await sessionOf(storage, users[name]);
    return {
      users,
      sessions,
      ownerToken: await tokenOf(storage, owner, SCOPES, "fixture owner"),
      otherOwnerToken: await tokenOf(storage, users.otherOwner, SCOPES, "fixture other owner"),
    };
  });

  const alpha = await withIssue(server, people.ownerToken, await createProject(server, people.ownerToken, "default", "alpha", "alpha-app"));
  const beta = await withIssue(server, people.ownerToken, await createProject(server, people.ownerToken, "default", "beta", "beta-app"));
  const other = await withIssue(server, people.otherOwnerToken, await createProject(server, people.otherOwnerToken, "other", "other-team", "other-app"));
  await ingest(server, "telemetry/node-transaction-task", alpha.id, alpha.publicKey);
  await ingest(server, "telemetry/browser-static-transaction-pageload", other.id, other.publicKey);
  for (const [as, organization, traceId] of [
    [people.ownerToken, "default", ALPHA_TRACE_ID],
    [people.otherOwnerToken, "other", OTHER_TRACE_ID],
  ] as const) {
    await eventually(`trace ${traceId}`, async () =>
      (await request(server, as, "GET", `/api/0/organizations/${organization}/trace/${traceId}/`)).status === 200 ? true : undefined,
    );
  }
  return { ...people, alpha, beta, other, alphaTraceId: ALPHA_TRACE_ID, otherTraceId: OTHER_TRACE_ID };
}
