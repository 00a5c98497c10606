/**
 * The data scrubbing settings part of the storage contract (PrivacyRepo), called once per engine
 * (tests/unit/storage-<engine>.test.ts). Each test gets a fresh storage.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { DEFAULT_PRIVACY, type PrivacySettings } from "../../src/model";
import type { Organization, Project, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

export function privacyContract(engine: string, factory: EngineFactory): void {
  describe(`privacy contract: ${engine}`, () => {
    let storage: Storage;
    let organization: Organization;
    let project: Project;

    beforeEach(async () => {
      storage = await factory.create();
      organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: "javascript" });
    });
    afterEach(() => factory.destroy(storage));

    it("reads the defaults where nothing was set, and what was set after", async () => {
      assert.deepEqual(await storage.privacy.getForProject(project.id), DEFAULT_PRIVACY);
      assert.deepEqual(await storage.privacy.getForOrganization(organization.id), DEFAULT_PRIVACY);
      const settings: PrivacySettings = {
        dataScrubber: false,
        dataScrubberDefaults: true,
        sensitiveFields: ["iban"],
        safeFields: ["order_token"],
        scrubIPAddresses: true,
        relayPiiConfig: '{"applications":{"$string":["@email:mask"]}}',
      };
      await storage.privacy.setForProject(project.id, settings);
      assert.deepEqual(await storage.privacy.getForProject(project.id), settings);
      assert.deepEqual(await storage.privacy.getForOrganization(organization.id), DEFAULT_PRIVACY, "the organisation's own row is apart");
      await storage.privacy.setForProject(project.id, { ...settings, sensitiveFields: [] });
      assert.deepEqual((await storage.privacy.getForProject(project.id)).sensitiveFields, [], "a second write replaces the first");
      await storage.privacy.setForOrganization(organization.id, { ...DEFAULT_PRIVACY, scrubIPAddresses: true });
      assert.equal((await storage.privacy.getForOrganization(organization.id)).scrubIPAddresses, true);
    });

    it("announces every write, so ingest caches empty", async () => {
      let heard = 0;
      const stop = storage.onKeysChanged(() => heard++);
      try {
        await storage.privacy.setForProject(project.id, { ...DEFAULT_PRIVACY, scrubIPAddresses: true });
        await storage.privacy.setForOrganization(organization.id, DEFAULT_PRIVACY);
        // PostgreSQL delivers NOTIFY asynchronously.
        for (let wait = 0; heard < 2 && wait < 50; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
        assert.ok(heard >= 2, `heard ${heard} announcements`);
      } finally {
        stop();
      }
    });

    it("refuses settings for a project that does not exist", async () => {
      await assert.rejects(storage.privacy.setForProject("999999", DEFAULT_PRIVACY));
    });
  });
}
