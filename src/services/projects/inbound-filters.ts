import { isIP } from "node:net";
import { z } from "zod";
import { AppError } from "../../errors";
import { FILTER_OPTIONS, INBOUND_FILTER_IDS, LEGACY_BROWSER_SUBFILTERS, projectOptionsFrom, type InboundFilterId, type InboundFilters, type Project } from "../../model";
import type { Storage } from "../../storage/types";
import type { Actor } from "../accounts/actor";
import { recordAudit } from "../accounts/audit";

const DESCRIPTIONS: Record<InboundFilterId, { name: string; description: string }> = {
  "browser-extensions": { name: "Filter out errors known to be caused by browser extensions", description: "Certain browser extensions will inject inline scripts and are known to cause errors." },
  localhost: { name: "Filter out events coming from localhost", description: "This applies to both IPv4 (127.0.0.1) and IPv6 (::1) addresses, and to URLs on localhost." },
  "legacy-browsers": { name: "Filter out known errors from legacy browsers", description: "Older browsers often give less accurate information, and while they may report valid issues, the context to understand them is incorrect or missing." },
  "web-crawlers": { name: "Filter out known web crawlers", description: "Some crawlers may execute pages in incompatible ways which then cause errors that are unlikely to be seen by a normal user." },
};

/** Sentry's filter JSON: `active` is a boolean, or the subfilter list for legacy-browsers. */
export interface InboundFilterJson {
  id: InboundFilterId;
  active: boolean | string[];
  name: string;
  description: string;
  hello: string;
}

export async function inboundFilters(storage: Storage, project: Project): Promise<InboundFilters> {
  return projectOptionsFrom(await storage.projectOptions.get(project.id)).filters;
}

export function filterList(filters: InboundFilters): InboundFilterJson[] {
  const active: Record<InboundFilterId, boolean | string[]> = {
    "browser-extensions": filters.browserExtensions,
    localhost: filters.localhost,
    "legacy-browsers": filters.legacyBrowsers.length > 0 ? filters.legacyBrowsers : false,
    "web-crawlers": filters.webCrawlers,
  };
  return INBOUND_FILTER_IDS.map((id) => ({ id, active: active[id], ...DESCRIPTIONS[id], hello: `${id} - ${DESCRIPTIONS[id].name}` }));
}

export const filterInput = z
  .object({
    active: z.boolean().optional(),
    subfilters: z.array(z.enum(LEGACY_BROWSER_SUBFILTERS, { message: `must be one of ${LEGACY_BROWSER_SUBFILTERS.join(", ")}` })).optional(),
  })
  .strict();
export type FilterInput = z.infer<typeof filterInput>;

export function filterIdOf(text: string): InboundFilterId {
  const id = INBOUND_FILTER_IDS.find((known) => known === text);
  if (!id) throw new AppError("not_found", `unknown filter: ${text} (filters: ${INBOUND_FILTER_IDS.join(", ")})`);
  return id;
}

/** Turns one of Sentry's four filters on or off; `subfilters` (legacy-browsers only) picks the browsers. */
export async function setInboundFilter(storage: Storage, actor: Actor, project: Project, id: InboundFilterId, input: FilterInput): Promise<void> {
  let value: boolean | string[];
  if (id === "legacy-browsers") {
    // As in Sentry: `active: true` without subfilters turns every subfilter on.
    value = input.subfilters ?? (input.active === true ? [...LEGACY_BROWSER_SUBFILTERS] : []);
  } else {
    if (input.subfilters !== undefined) throw new AppError("bad_request", "invalid filter", ["subfilters: only legacy-browsers has subfilters"]);
    if (input.active === undefined) throw new AppError("bad_request", "invalid filter", ["active: required (true or false)"]);
    value = input.active;
  }
  await storage.projectOptions.set(project.id, FILTER_OPTIONS[id], value);
  await recordAudit(storage, actor, project.organizationId, "project.edit", { type: "project", id: project.id }, { project: project.slug, filter: id, active: value });
}

const glob = z.string().trim().min(1).max(200, "must be at most 200 characters");
const address = z
  .string()
  .trim()
  .refine((text) => {
    const [ip = "", prefix, extra] = text.split("/");
    const family = isIP(ip);
    if (family === 0 || extra !== undefined) return false;
    return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
  }, "must be an IP address or a CIDR range (198.51.100.0/24)");

/** Sentry's project `options` for the list filters: newline-separated text, as Sentry's settings page sends them. */
export const filterListsInput = z
  .object({
    "filters:error_messages": z.string().optional(),
    "filters:releases": z.string().optional(),
    "filters:blacklisted_ips": z.string().optional(),
  })
  .strict();
export type FilterListsInput = z.infer<typeof filterListsInput>;

const lines = (text: string) => text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");

/** Sets the error-message and release globs and the address list; each is checked, entry by entry. */
export async function setFilterLists(storage: Storage, actor: Actor, project: Project, input: FilterListsInput): Promise<void> {
  const checked: [string, string[]][] = [];
  const check = (name: string, text: string | undefined, entry: z.ZodType<string>) => {
    if (text === undefined) return;
    const parsed = z.array(entry).max(100, "at most 100 entries").safeParse(lines(text));
    if (!parsed.success) throw new AppError("bad_request", "invalid options", parsed.error.issues.map((issue) => `${name}: ${issue.message}`));
    checked.push([name, parsed.data]);
  };
  check(FILTER_OPTIONS.errorMessages, input["filters:error_messages"], glob);
  check(FILTER_OPTIONS.releases, input["filters:releases"], glob);
  check(FILTER_OPTIONS.ipAddresses, input["filters:blacklisted_ips"], address);
  for (const [name, value] of checked) await storage.projectOptions.set(project.id, name, value);
  if (checked.length > 0) await recordAudit(storage, actor, project.organizationId, "project.edit", { type: "project", id: project.id }, { project: project.slug, options: Object.fromEntries(checked) });
}

/** The list filters as Sentry's project `options` shows them. */
export function filterListOptions(filters: InboundFilters): Record<string, string> {
  return {
    "filters:error_messages": filters.errorMessages.join("\n"),
    "filters:releases": filters.releases.join("\n"),
    "filters:blacklisted_ips": filters.ipAddresses.join("\n"),
  };
}
