import { z } from "zod";
import { ORIGINS_OPTION, projectOptionsFrom, type Project } from "../../model";
import type { Storage } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";

/** One entry: `*`, a host, `*.host`, optionally with a scheme or port (src/ingest/origins.ts). */
const DOMAIN = /^(?:\*|(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\*\.)?[^\s/:*]+(?::(?:\d+|\*))?\/?)$/i;

export const allowedDomainsInput = z
  .array(z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters").regex(DOMAIN, "must be *, a host, *.host, optionally with a scheme or port"))
  .max(100, "at most 100 entries");

/** The origins browser SDK traffic to this project may come from (Sentry's `allowedDomains`). */
export async function allowedDomains(storage: Storage, project: Project): Promise<string[]> {
  return projectOptionsFrom(await storage.projectOptions.get(project.id)).allowedDomains;
}

/** Replaces the list; every process's ingest checks the new one at once (the write is announced to the key caches). */
export async function setAllowedDomains(storage: Storage, actor: Actor, project: Project, domains: string[]): Promise<string[]> {
  const unique = [...new Set(domains)];
  await storage.projectOptions.set(project.id, ORIGINS_OPTION, unique);
  await recordAudit(storage, actor, project.organizationId, "project.edit", { type: "project", id: project.id }, { project: project.slug, allowedDomains: unique });
  return unique;
}
