import { AppError } from "../../errors";
import { QUOTA_CATEGORIES, QUOTA_WINDOWS, type Quota } from "../../model";
import { MAX_QUOTA_LIMIT } from "./settings";

/** The settings pages' field for one quota. */
export const quotaFieldName = (category: string, window: string) => `limit-${category}-${window}`;

/**
 * The quotas a settings form sets: one field per category and window, empty for none. A bad value
 * is refused naming the cell ("Errors per hour"), as the API names the field.
 */
export function quotasFromForm(form: { get(name: string): unknown }): Quota[] {
  const quotas: Quota[] = [];
  const problems: string[] = [];
  for (const category of QUOTA_CATEGORIES) {
    for (const window of QUOTA_WINDOWS) {
      const raw = form.get(quotaFieldName(category, window));
      const text = typeof raw === "string" ? raw.trim().replace(/[,_ ]/g, "") : "";
      if (text === "") continue;
      const limit = Number(text);
      if (!/^\d+$/.test(text) || limit > MAX_QUOTA_LIMIT) problems.push(`${category} per ${window}: must be a whole number from 0 to ${MAX_QUOTA_LIMIT}`);
      else quotas.push({ category, window, limit });
    }
  }
  if (problems.length > 0) throw new AppError("bad_request", problems.join("; "), problems);
  return quotas;
}
