/**
 * Quota and spike-protection settings (issue 33 item 4), for the API and the settings pages. Sentry
 * has no public quota API, so the shape is ours (docs/api.md "Quotas"); spike protection follows
 * Sentry's `/organizations/{org}/spike-protections/` route. Every change is audited and reaches
 * every process's ingest key cache (the repository announces it).
 */
import { z } from "zod";
import { AppError } from "../../errors";
import {
  QUOTA_CATEGORIES,
  QUOTA_WINDOWS,
  SPIKE_PROTECTION_OPTION,
  projectOptionsFrom,
  quotaCounterName,
  quotaWindowAt,
  type Organization,
  type Project,
  type Quota,
} from "../../model";
import type { Storage } from "../../storage/types";
import { visibleProjects, type Access } from "../accounts/access";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";
import { listProjects } from "../projects/list-projects";

/** Largest limit accepted: beyond any real volume, and exact as a JavaScript number and a BIGINT. */
export const MAX_QUOTA_LIMIT = 1_000_000_000_000;

/** One quota as the API shows it: the setting, and how much of the current window is used. */
export interface QuotaJson extends Quota {
  used: number;
  /** When the current window ends (ISO 8601, UTC). */
  resetsAt: string;
}

const quotaEntry = z
  .object({
    category: z.enum(QUOTA_CATEGORIES, { message: `must be one of ${QUOTA_CATEGORIES.join(", ")}` }),
    window: z.enum(QUOTA_WINDOWS, { message: `must be one of ${QUOTA_WINDOWS.join(", ")}` }),
    limit: z
      .number({ message: "must be a whole number from 0" })
      .int("must be a whole number from 0")
      .min(0, "must be a whole number from 0")
      .max(MAX_QUOTA_LIMIT, `must be at most ${MAX_QUOTA_LIMIT}`),
  })
  .strict();

export const quotasInput = z
  .object({
    quotas: z.array(quotaEntry).max(QUOTA_CATEGORIES.length * QUOTA_WINDOWS.length).optional(),
    /** Projects only. */
    spikeProtection: z.boolean().optional(),
  })
  .strict();
export type QuotasInput = z.infer<typeof quotasInput>;

/** A 400 in the shape readJsonBody's are: the message names the field, the causes repeat it. */
const invalid = (cause: string) => new AppError("bad_request", `invalid request body: ${cause}`, [cause]);

/** Each category and window at most once: two limits for one counter would be ambiguous. */
function checkedQuotas(quotas: Quota[]): Quota[] {
  const seen = new Map<string, number>();
  quotas.forEach((quota, index) => {
    const key = `${quota.category}/${quota.window}`;
    const first = seen.get(key);
    if (first !== undefined) throw invalid(`quotas.${index}: ${quota.category} per ${quota.window} is already set by quotas.${first}`);
    seen.set(key, index);
  });
  return quotas;
}

async function withUsage(storage: Storage, quotas: Quota[], owner: "p" | "o", id: string, now: number): Promise<QuotaJson[]> {
  const windows = quotas.map((quota) => quotaWindowAt(quota.window, now));
  const used = await storage.quotaCounts.current(quotas.map((quota, index) => ({ name: quotaCounterName(owner, id, quota.category, quota.window), windowStart: windows[index]!.start })));
  return quotas.map((quota, index) => ({ ...quota, used: used[index] ?? 0, resetsAt: new Date(windows[index]!.end * 1000).toISOString() }));
}

export interface ProjectQuotasJson {
  quotas: QuotaJson[];
  /** The organisation's quotas, which this project's items count towards too. */
  organizationQuotas: QuotaJson[];
  spikeProtection: { enabled: boolean };
}

export async function projectQuotas(storage: Storage, project: Project, now = Date.now()): Promise<ProjectQuotasJson> {
  const set = await storage.quotas.forProject(project.organizationId, project.id);
  const options = projectOptionsFrom(await storage.projectOptions.get(project.id));
  return {
    quotas: await withUsage(storage, set.project, "p", project.id, now),
    organizationQuotas: await withUsage(storage, set.organization, "o", project.organizationId, now),
    spikeProtection: { enabled: options.spikeProtection },
  };
}

export async function organizationQuotas(storage: Storage, organization: Organization, now = Date.now()): Promise<{ quotas: QuotaJson[] }> {
  return { quotas: await withUsage(storage, await storage.quotas.list(organization.id, null), "o", organization.id, now) };
}

/** Replaces the project's quotas (when `quotas` is given) and switches spike protection (when given). */
export async function updateProjectQuotas(storage: Storage, actor: Actor, project: Project, input: QuotasInput): Promise<ProjectQuotasJson> {
  if (input.quotas !== undefined) await storage.quotas.replace(project.organizationId, project.id, checkedQuotas(input.quotas));
  if (input.spikeProtection !== undefined) await storage.projectOptions.set(project.id, SPIKE_PROTECTION_OPTION, input.spikeProtection);
  await recordAudit(storage, actor, project.organizationId, "project.edit", { type: "project", id: project.id }, { project: project.slug, quotas: input.quotas, spikeProtection: input.spikeProtection });
  return projectQuotas(storage, project);
}

export async function updateOrganizationQuotas(storage: Storage, actor: Actor, organization: Organization, input: QuotasInput): Promise<{ quotas: QuotaJson[] }> {
  if (input.spikeProtection !== undefined) throw invalid("spikeProtection: set per project (PUT /api/0/projects/{org}/{project}/quotas/ or /spike-protections/)");
  if (input.quotas !== undefined) await storage.quotas.replace(organization.id, null, checkedQuotas(input.quotas));
  await recordAudit(storage, actor, organization.id, "org.edit", { type: "organization", id: organization.id }, { quotas: input.quotas });
  return organizationQuotas(storage, organization);
}

/** Sentry's spike-protections body: project slugs, or `["$all"]` for every project the caller may see. */
export const spikeProtectionsInput = z
  .object({ projects: z.array(z.string().min(1, "must not be empty")).min(1, "must name at least one project (or $all)") })
  .strict();

/** Switches spike protection on or off for the named projects; answers which. */
export async function setSpikeProtection(storage: Storage, access: Access, actor: Actor, input: z.infer<typeof spikeProtectionsInput>, enabled: boolean): Promise<Project[]> {
  const visible = visibleProjects(access, await listProjects(storage, access.organization));
  const wanted = input.projects;
  let projects: Project[];
  if (wanted.includes("$all")) projects = visible;
  else {
    projects = [];
    for (const [index, slug] of wanted.entries()) {
      const project = visible.find((candidate) => candidate.slug === slug);
      if (!project) throw invalid(`projects.${index}: unknown project ${slug}`);
      projects.push(project);
    }
  }
  for (const project of projects) await storage.projectOptions.set(project.id, SPIKE_PROTECTION_OPTION, enabled);
  await recordAudit(storage, actor, access.organization.id, "project.edit", { type: "organization", id: access.organization.id }, { spikeProtection: enabled, projects: projects.map((project) => project.slug) });
  return projects;
}
