import assert from "node:assert/strict";
import type { TestServer } from "./server";

export interface InternalProject {
  organizationId: string;
  projectId: string;
  publicKey: string;
  dsn: string;
}

/** Periscope's own "periscope" project and its DSN, looked up through the REST API. */
export async function internalProject(server: TestServer): Promise<InternalProject> {
  const get = async <T>(path: string) => (await (await server.api(path)).json()) as T;
  const [organization] = await get<{ id: string }[]>("/api/0/organizations/");
  const projects = await get<{ id: string; slug: string }[]>("/api/0/organizations/default/projects/");
  const project = projects.find((candidate) => candidate.slug === "periscope");
  assert.ok(organization && project, "the internal project exists from the first start");
  const [key] = await get<{ public: string; dsn: { public: string } }[]>("/api/0/projects/default/periscope/keys/");
  assert.ok(key, "the internal project has a DSN key from the first start");
  return { organizationId: organization.id, projectId: project.id, publicKey: key.public, dsn: key.dsn.public };
}

/** Polls until `probe` returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
