import type { Workspace } from "@/src/services/ui/workspace";
import { filtersHref, keysHref, quotasHref, sourceMapsHref } from "./app-shell";
import { TabLinks, type TabLink } from "./tab-links";

export type SettingsTab = "members" | "teams" | "audit" | "keys" | "filters" | "source-maps" | "security" | "account" | "quotas" | "org-quotas";

/** The settings sections; the audit log is listed only for owners and admins, who may open it. */
export function SettingsNav({ workspace, active }: { workspace: Workspace; active: SettingsTab }) {
  const { organization, project, access } = workspace;
  const base = `/settings/${organization.slug}`;
  const items: TabLink<SettingsTab>[] = [
    { id: "members", label: "Members", href: `${base}/members` },
    { id: "teams", label: "Teams", href: `${base}/teams` },
    ...(access.role === "owner" || access.role === "admin" ? [{ id: "audit" as const, label: "Audit log", href: `${base}/audit-log` }] : []),
    // Quotas (issue 33 item 4): the organisation's here, the project's with the project's sections.
    { id: "org-quotas" as const, label: "Organisation quotas", href: `${base}/quotas` },
    ...(project
      ? [
          { id: "keys" as const, label: "Client keys", href: keysHref(organization.slug, project) },
          { id: "filters" as const, label: "Inbound filters", href: filtersHref(organization.slug, project) },
          { id: "quotas" as const, label: "Quotas", href: quotasHref(organization.slug, project) },
          { id: "source-maps" as const, label: "Source maps", href: sourceMapsHref(organization.slug, project) },
          { id: "security" as const, label: "Security & Privacy", href: `/settings/${organization.slug}/projects/${project.slug}/security` },
        ]
      : []),
    { id: "account", label: "My account", href: "/settings/account" },
  ];
  return (
    <TabLinks
      label="Settings"
      items={items}
      active={active}
      className="mx-auto mb-6 flex max-w-4xl gap-1 overflow-x-auto border-b border-line"
      linkClassName="-mb-px border-b-2 border-transparent px-3 py-2 font-medium whitespace-nowrap text-muted hover:text-fg aria-[current=page]:border-accent aria-[current=page]:text-fg"
    />
  );
}
