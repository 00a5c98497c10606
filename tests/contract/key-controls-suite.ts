/**
 * Key controls (issue 33): renaming, disabling, rate limits and revoking keys, project options, and
 * the per-key rate counters. Called once per engine (tests/unit/storage-<engine>.test.ts).
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { Project, Storage } from "../../src/storage/types";
import type { EngineFactory } from "./suite";

export function keyControlsContract(engine: string, factory: EngineFactory): void {
  describe(`key controls contract: ${engine}`, () => {
    let storage: Storage;
    let project: Project;
    let other: Project;

    beforeEach(async () => {
      storage = await factory.create();
      const organization = await storage.organizations.create({ slug: "acme", name: "Acme" });
      project = await storage.projects.create({ organizationId: organization.id, slug: "web", name: "Web", platform: "javascript" });
      other = await storage.projects.create({ organizationId: organization.id, slug: "api", name: "API", platform: null });
    });
    afterEach(async () => factory.destroy(storage));

    it("renames, disables, limits and re-enables a key of its own project only", async () => {
      const key = await storage.keys.create({ projectId: project.id, label: "Default" });
      assert.equal(await storage.keys.update(other.id, key.publicKey, { label: "Stolen" }), null);
      const changed = await storage.keys.update(project.id, key.publicKey, { label: "Browser", isActive: false, rateLimit: { window: 60, count: 5 } });
      assert.deepEqual(changed, { ...key, label: "Browser", isActive: false, rateLimit: { window: 60, count: 5 } });
      assert.deepEqual(await storage.keys.getByPublicKey(key.publicKey), changed);
      const unchanged = await storage.keys.update(project.id, key.publicKey, {});
      assert.deepEqual(unchanged, changed);
      const enabled = await storage.keys.update(project.id, key.publicKey, { isActive: true, rateLimit: null });
      assert.deepEqual(enabled, { ...key, label: "Browser", isActive: true, rateLimit: null });
      assert.equal(await storage.keys.update(project.id, "0".repeat(32), { isActive: false }), null);
    });

    it("revokes a key of its own project only, and tells key-change listeners", async () => {
      const key = await storage.keys.create({ projectId: project.id, label: "Default" });
      let calls = 0;
      storage.onKeysChanged(() => calls++);
      assert.equal(await storage.keys.remove(other.id, key.publicKey), false);
      assert.equal(await storage.keys.remove(project.id, key.publicKey), true);
      assert.equal(await storage.keys.getByPublicKey(key.publicKey), null);
      assert.deepEqual(await storage.keys.listByProject(project.id), []);
      assert.equal(await storage.keys.remove(project.id, key.publicKey), false);
      for (let waited = 0; calls === 0 && waited < 5_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
      assert.ok(calls >= 1);
    });

    it("stores project options per project and replaces them", async () => {
      assert.deepEqual(await storage.projectOptions.get(project.id), {});
      await storage.projectOptions.set(project.id, "sentry:origins", ["example.com", "*.example.org"]);
      await storage.projectOptions.set(project.id, "sentry:origins", ["example.net"]);
      await storage.projectOptions.set(project.id, "filters:localhost", { active: true });
      assert.deepEqual(await storage.projectOptions.get(project.id), { "sentry:origins": ["example.net"], "filters:localhost": { active: true } });
      assert.deepEqual(await storage.projectOptions.get(other.id), {});
    });

    it("counts per key and window, starting again in a new window", async () => {
      const [a, b] = [await storage.keys.create({ projectId: project.id, label: "a" }), await storage.keys.create({ projectId: project.id, label: "b" })];
      assert.equal(await storage.keyRates.add(a.id, 1_000, 1), 1);
      assert.equal(await storage.keyRates.add(a.id, 1_000, 2), 3);
      assert.equal(await storage.keyRates.add(b.id, 1_000, 1), 1);
      assert.equal(await storage.keyRates.add(a.id, 1_060, 1), 1);
      assert.equal(await storage.keyRates.add(a.id, 1_060, 1), 2);
      // Concurrent adds are never lost.
      const totals = await Promise.all(Array.from({ length: 20 }, () => storage.keyRates.add(b.id, 1_000, 1)));
      assert.equal(Math.max(...totals), 21);
      assert.equal(new Set(totals).size, 20);
    });
  });
}
