/** What the release endpoints accept, in Sentry's (and sentry-cli's) field names. */
import { z } from "zod";

/** Sentry's rule: no "/" "\n" "\t" "\r", not "." or "..", not only spaces, at most 200 characters. */
export const releaseVersion = z
  .string()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .refine((value) => !/[\n\r\t/\\]/.test(value) && value !== "." && value !== ".." && value.trim() !== "" && value.toLowerCase() !== "latest", "must not contain a slash, tab or newline, nor be '.', '..', 'latest' or blank");

/** sentry-cli sends numeric project ids as numbers and slugs as strings. */
const projectRef = z.union([z.string().min(1).max(100), z.number().int().nonnegative()]).transform(String);

const isoTime = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), "must be an ISO 8601 date")
  .transform((value) => Date.parse(value));

const sha = z.string().trim().min(1).max(64, "must be at most 64 characters");

export const commitInput = z.object({
  id: sha,
  repository: z.string().trim().min(1).max(200).optional(),
  message: z.string().max(10_000).nullable().optional(),
  author_name: z.string().max(200).nullable().optional(),
  author_email: z.string().max(200).nullable().optional(),
  timestamp: isoTime.nullable().optional(),
});

export const refInput = z.object({
  repository: z.string().trim().min(1).max(200),
  commit: sha,
  previousCommit: sha.nullable().optional(),
});

export const newReleaseInput = z.object({
  version: releaseVersion,
  projects: z.array(projectRef).min(1, "name at least one project").max(100),
  url: z.string().url().max(1000).nullable().optional(),
  dateStarted: isoTime.nullable().optional(),
  dateReleased: isoTime.nullable().optional(),
  refs: z.array(refInput).max(100).optional(),
  commits: z.array(commitInput).max(10_000).optional(),
});
export type NewReleaseInput = z.infer<typeof newReleaseInput>;

export const updateReleaseInput = z.object({
  projects: z.array(projectRef).max(100).optional(),
  url: z.string().url().max(1000).nullable().optional(),
  dateReleased: isoTime.nullable().optional(),
  status: z.enum(["open", "archived"]).optional(),
  refs: z.array(refInput).max(100).optional(),
  commits: z.array(commitInput).max(10_000).optional(),
});
export type UpdateReleaseInput = z.infer<typeof updateReleaseInput>;

export const newDeployInput = z.object({
  environment: z.string().trim().min(1, "must not be empty").max(64).regex(/^[^\n\r\f/]*$/, "must not contain a slash or newline"),
  name: z.string().max(64).nullable().optional(),
  url: z.string().url().max(1000).nullable().optional(),
  dateStarted: isoTime.nullable().optional(),
  dateFinished: isoTime.nullable().optional(),
  projects: z.array(projectRef).max(100).optional(),
});
export type NewDeployInput = z.infer<typeof newDeployInput>;

export const newRepositoryInput = z.object({
  name: z.string().trim().min(1).max(200),
  url: z.string().url().max(1000).nullable().optional(),
  provider: z.string().max(64).nullable().optional(),
});
