/**
 * `npm run bench -- --quotas none,on,on,none`: quotas put on the benchmark project before any
 * traffic, so one run measures ingest with quotas against none. "on": a project quota and an
 * organisation quota on errors, both far above what a run sends, so every request is charged to two
 * shared counters (memory on SQLite, one conditional upsert on PostgreSQL) and none is refused.
 */
import { loadConfig } from "../src/config";
import { createStorage } from "../src/storage";

export type QuotaVariant = "none" | "on";
export const QUOTA_VARIANTS: readonly QuotaVariant[] = ["none", "on"];

/** Writes the quotas into the server's database (before its first event, so its cache has nothing to forget). */
export async function putBenchQuotas(env: Record<string, string>, projectId: string, variant: QuotaVariant): Promise<void> {
  if (variant === "none") return;
  const storage = await createStorage(loadConfig({ ...process.env, ...env }));
  try {
    const project = await storage.projects.getById(projectId);
    if (!project) throw new Error(`no project ${projectId}`);
    await storage.quotas.replace(project.organizationId, project.id, [{ category: "error", window: "minute", limit: 1_000_000_000 }]);
    await storage.quotas.replace(project.organizationId, null, [{ category: "error", window: "day", limit: 1_000_000_000_000 }]);
  } finally {
    await storage.close();
  }
}
