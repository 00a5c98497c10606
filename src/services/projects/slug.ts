import { z } from "zod";

/** Sentry's slug rule: lower-case letters, digits, dashes and underscores, not all digits. */
export const slugSchema = z
  .string()
  .min(1, "must not be empty")
  .max(50, "must be at most 50 characters")
  .regex(/^[a-z0-9_-]+$/, "may contain only lower-case letters, digits, '-' and '_'")
  .refine((value) => !/^\d+$/.test(value), "must not be only digits");

export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50);
  return slug === "" || /^\d+$/.test(slug) ? `project-${slug}`.replace(/-$/, "") : slug;
}
