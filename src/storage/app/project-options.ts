import type { ProjectOptionsRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";

/**
 * Sentry's project options (allowed origins, inbound filters), one JSON value per name. Writes are
 * announced like key writes: the ingest key cache holds each project's options.
 */
export function appProjectOptions(dialect: AppDialect): ProjectOptionsRepo {
  return {
    async get(projectId) {
      const rows = await dialect.db.selectFrom("project_options").select(["name", "value"]).where("project_id", "=", rowIdOf(projectId)).execute();
      const options: Record<string, unknown> = {};
      for (const row of rows) options[row.name] = JSON.parse(row.value) as unknown;
      return options;
    },
    async set(projectId, name, value) {
      const text = JSON.stringify(value);
      await dialect.announcingKeys("project", (q) =>
        q
          .insertInto("project_options")
          .values({ project_id: rowIdOf(projectId), name, value: text })
          .onConflict((conflict) => conflict.columns(["project_id", "name"]).doUpdateSet({ value: text }))
          .execute(),
      );
    },
  };
}
