/**
 * Monitors as people manage them (the Crons pages and `/api/0/organizations/{org}/monitors/`):
 * listed, created, changed and deleted within the projects the caller may see. The config takes
 * Sentry's API shape (`schedule_type`, `schedule` as a crontab or `[value, unit]`).
 */
import { z } from "zod";
import { AppError } from "../../errors";
import { MONITOR_SCHEDULE_UNITS, type CheckIn, type Monitor, type MonitorConfig, type Project } from "../../model";
import type { Storage } from "../../storage/types";
import { requireProject, requireScope, visibleProjects, type Access } from "../accounts/access";
import { listProjects } from "../projects/list-projects";
import { visibleProject } from "../projects/visible-project";
import { slugify } from "../projects/slug";
import { MonitorConfigError, nextExpected, validateMonitorConfig } from "./schedule";

const minutes = z.number().int().nullable().optional();

const apiConfig = z
  .object({
    schedule_type: z.enum(["crontab", "interval"]).optional(),
    schedule: z.union([z.string().min(1), z.tuple([z.number().int(), z.enum(MONITOR_SCHEDULE_UNITS as [string, ...string[]])])]),
    checkin_margin: minutes,
    max_runtime: minutes,
    timezone: z.string().min(1).nullable().optional(),
    failure_issue_threshold: minutes,
    recovery_threshold: minutes,
  })
  .passthrough();

const monitorSlug = z
  .string()
  .min(1, "must not be empty")
  .max(50, "must be at most 50 characters")
  .regex(/^[a-zA-Z0-9_-]+$/, "may contain only letters, digits, '-' and '_'");

export const newMonitorInput = z.object({
  project: z.string().min(1),
  name: z.string().trim().min(1).max(128),
  slug: monitorSlug.optional(),
  type: z.literal("cron_job").optional(),
  status: z.enum(["active", "disabled"]).optional(),
  config: apiConfig,
});
export type NewMonitorInput = z.infer<typeof newMonitorInput>;

export const updateMonitorInput = z.object({
  project: z.string().min(1).optional(),
  name: z.string().trim().min(1).max(128).optional(),
  slug: monitorSlug.optional(),
  status: z.enum(["active", "disabled"]).optional(),
  config: apiConfig.optional(),
});
export type UpdateMonitorInput = z.infer<typeof updateMonitorInput>;

/** Sentry's API config → ours, validated (400 naming the problem). */
function configOf(raw: z.infer<typeof apiConfig>): MonitorConfig {
  const type = raw.schedule_type ?? (typeof raw.schedule === "string" ? "crontab" : "interval");
  let schedule: MonitorConfig["schedule"];
  if (type === "crontab") {
    if (typeof raw.schedule !== "string") throw new AppError("bad_request", "config.schedule: a crontab schedule is a string such as '0 * * * *'");
    schedule = { type, value: raw.schedule };
  } else {
    if (typeof raw.schedule === "string") throw new AppError("bad_request", "config.schedule: an interval schedule is [value, unit], such as [2, 'hour']");
    schedule = { type, value: raw.schedule[0], unit: raw.schedule[1] as (typeof MONITOR_SCHEDULE_UNITS)[number] };
  }
  try {
    return validateMonitorConfig({
      schedule,
      checkinMargin: raw.checkin_margin ?? null,
      maxRuntime: raw.max_runtime ?? null,
      timezone: raw.timezone ?? null,
      failureIssueThreshold: raw.failure_issue_threshold ?? null,
      recoveryThreshold: raw.recovery_threshold ?? null,
    });
  } catch (error) {
    if (error instanceof MonitorConfigError) throw new AppError("bad_request", `config: ${error.message}`);
    throw error;
  }
}

export interface MonitorWithProject {
  monitor: Monitor;
  project: Project;
}

export async function listMonitors(storage: Storage, access: Access, onlyProjects?: Project[]): Promise<MonitorWithProject[]> {
  const projects = onlyProjects ?? visibleProjects(access, await listProjects(storage, access.organization));
  const byId = new Map(projects.map((project) => [project.id, project]));
  const monitors = await storage.monitors.list(access.organization.id, [...byId.keys()]);
  return monitors.map((monitor) => ({ monitor, project: byId.get(monitor.projectId)! }));
}

/** The monitor by slug in the caller's organisation; "not found" unless the caller may see its project. */
export async function getMonitor(storage: Storage, access: Access, slug: string): Promise<MonitorWithProject> {
  const monitor = await storage.monitors.getBySlug(access.organization.id, slug);
  if (!monitor) throw new AppError("not_found", "monitor not found");
  const project = requireProject(access, await storage.projects.getById(monitor.projectId), "monitor");
  return { monitor, project };
}

/** Made in the UI or API: expected from now on, so a job that never checks in is seen missing. */
export async function createMonitor(storage: Storage, access: Access, input: NewMonitorInput, now = Date.now()): Promise<MonitorWithProject> {
  requireScope(access, "project:write");
  const project = await visibleProject(storage, access, input.project);
  const config = configOf(input.config);
  const status = input.status ?? "active";
  const next = status === "active" ? nextExpected(config, now) : null;
  const monitor = await storage.monitors.create({
    organizationId: access.organization.id,
    projectId: project.id,
    slug: input.slug ?? slugify(input.name),
    name: input.name,
    config,
    status,
    nextCheckIn: next?.nextCheckIn ?? null,
    nextCheckInLatest: next?.nextCheckInLatest ?? null,
    dateCreated: now,
  });
  return { monitor, project };
}

export async function updateMonitor(storage: Storage, access: Access, slug: string, input: UpdateMonitorInput, now = Date.now()): Promise<MonitorWithProject> {
  requireScope(access, "project:write");
  const { monitor } = await getMonitor(storage, access, slug);
  const project = input.project ? await visibleProject(storage, access, input.project) : undefined;
  const config = input.config ? configOf(input.config) : monitor.config;
  const status = input.status ?? monitor.status;
  // A new schedule, or coming back from disabled, counts from now.
  const reschedule = input.config !== undefined || (status === "active" && monitor.status === "disabled");
  const next = status === "active" ? (reschedule ? nextExpected(config, now) : undefined) : null;
  const updated = await storage.monitors.update(monitor.id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.slug !== undefined ? { slug: input.slug } : {}),
    ...(project ? { projectId: project.id } : {}),
    config,
    status,
    ...(next !== undefined ? { nextCheckIn: next?.nextCheckIn ?? null, nextCheckInLatest: next?.nextCheckInLatest ?? null } : {}),
  });
  if (!updated) throw new AppError("not_found", "monitor not found");
  return { monitor: updated, project: project ?? (await getMonitor(storage, access, updated.slug)).project };
}

export async function deleteMonitor(storage: Storage, access: Access, slug: string): Promise<void> {
  requireScope(access, "project:write");
  const { monitor } = await getMonitor(storage, access, slug);
  await storage.monitors.remove(monitor.id);
}

/** A monitor's runs, newest first. */
export async function listMonitorCheckIns(storage: Storage, access: Access, slug: string, limit: number, before?: string): Promise<{ monitor: Monitor; checkIns: CheckIn[] }> {
  const { monitor } = await getMonitor(storage, access, slug);
  return { monitor, checkIns: await storage.monitors.listCheckIns(monitor.id, Math.min(Math.max(limit, 1), 1000), before) };
}
