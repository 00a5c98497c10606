import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { AppShell, filtersHref } from "@/components/app-shell";
import { SettingsNav } from "@/components/settings-nav";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { LEGACY_BROWSER_SUBFILTERS } from "@/src/model";
import { getRuntime } from "@/src/runtime";
import { hasScope } from "@/src/services/accounts/access";
import { filterList, inboundFilters } from "@/src/services/projects/inbound-filters";
import { saveFilterListsAction, saveFiltersAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Inbound filters" };

type Props = { params: Promise<{ org: string; project: string }> };

const SUBFILTER_LABELS: Record<(typeof LEGACY_BROWSER_SUBFILTERS)[number], string> = {
  ie: "Internet Explorer (all)",
  edge: "Edge before 79",
  safari: "Safari before 12",
  firefox: "Firefox before 66",
  chrome: "Chrome before 63",
  opera: "Opera before 50",
  opera_mini: "Opera Mini before 35",
  android: "Android browser before 4",
};

export default async function FiltersPage({ params }: Props) {
  const { org, project: projectRef } = await params;
  const workspace = await requireWorkspace(org, `/settings/${org}/projects/${projectRef}/filters`, projectRef);
  const project = workspace.project;
  if (!project) notFound();
  const { storage } = getRuntime();
  const slug = workspace.organization.slug;
  const filters = await inboundFilters(storage, project);
  const canWrite = hasScope(workspace.access, "project:write");
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => filtersHref(slug, p)}>
      <SettingsNav workspace={workspace} active="filters" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">Project settings · {project.name}</p>
          <h1 className="text-xl font-semibold">Inbound filters</h1>
          <p className="mt-1 max-w-2xl text-muted">
            Error events matching a filter are dropped before they are stored and counted as <em>filtered</em>, with the filter as the
            reason.
          </p>
        </div>
        <Section title="Filters" id="filters">
          <Card className="p-4">
            <ActionForm action={saveFiltersAction.bind(null, slug, project.slug)} className="space-y-3" testId="inbound-filters">
              {filterList(filters).map((filter) => (
                <fieldset key={filter.id} className="space-y-1">
                  {filter.id === "legacy-browsers" ? (
                    <>
                      <legend className="font-medium">{filter.name}</legend>
                      <div className="flex flex-wrap gap-x-4 gap-y-1">
                        {LEGACY_BROWSER_SUBFILTERS.map((sub) => (
                          <label key={sub} className="flex items-center gap-1.5 text-sm">
                            <input type="checkbox" name={`legacy-${sub}`} defaultChecked={filters.legacyBrowsers.includes(sub)} disabled={!canWrite} />
                            {SUBFILTER_LABELS[sub]}
                          </label>
                        ))}
                      </div>
                    </>
                  ) : (
                    <label className="flex items-center gap-2 font-medium">
                      <input type="checkbox" name={filter.id} defaultChecked={filter.active === true} disabled={!canWrite} />
                      {filter.name}
                    </label>
                  )}
                  <p className="text-xs text-subtle">{filter.description}</p>
                </fieldset>
              ))}
              {canWrite ? <SubmitButton className={buttonClass.secondary}>Save filters</SubmitButton> : null}
            </ActionForm>
          </Card>
        </Section>
        <Section title="Custom filters" id="custom-filters">
          <Card className="p-4">
            <ActionForm action={saveFilterListsAction.bind(null, slug, project.slug)} className="space-y-3" testId="custom-filters">
              <ListField id="errorMessages" label="Error messages" hint="Globs over the exception (Type: value) or message, one per line; * matches anything, case-insensitive." value={filters.errorMessages} disabled={!canWrite} />
              <ListField id="releases" label="Releases" hint="Globs over the release, one per line (1.0.*, *-beta)." value={filters.releases} disabled={!canWrite} />
              <ListField id="ipAddresses" label="IP addresses" hint="Client addresses or CIDR ranges, one per line (198.51.100.7, 2001:db8::/32)." value={filters.ipAddresses} disabled={!canWrite} />
              {canWrite ? <SubmitButton className={buttonClass.secondary}>Save custom filters</SubmitButton> : null}
            </ActionForm>
          </Card>
        </Section>
      </div>
    </AppShell>
  );
}

function ListField({ id, label, hint, value, disabled }: { id: string; label: string; hint: string; value: string[]; disabled: boolean }) {
  return (
    <div>
      <label htmlFor={`filter-${id}`} className="font-medium">
        {label}
      </label>
      <p className="text-xs text-subtle">{hint}</p>
      <textarea id={`filter-${id}`} name={id} rows={3} defaultValue={value.join("\n")} disabled={disabled} className={`${inputClass} mt-1 w-full font-mono`} />
    </div>
  );
}
