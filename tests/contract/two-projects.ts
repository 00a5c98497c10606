import { afterEach, beforeEach } from "node:test";
import type { Project, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

export interface TwoProjects {
  storage: Storage;
  /** `web`, platform javascript. */
  project: Project;
  /** `api`, platform node, in the same organisation. */
  other: Project;
}

/** Per test of the enclosing `describe`: a fresh storage with one organisation and two projects, handed to `use`. */
export function withTwoProjects(factory: EngineFactory, use: (made: TwoProjects) => void): void {
  let storage: Storage;
  beforeEach(async () => {
    storage = await factory.create();
    const organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
    const project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: "javascript" });
    const other = await storage.projects.create({ organizationId: organization.id, slug: "api", name: "API", platform: "node" });
    use({ storage, project, other });
  });
  afterEach(async () => factory.destroy(storage));
}
