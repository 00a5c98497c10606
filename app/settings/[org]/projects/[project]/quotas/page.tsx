import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { AppShell, quotasHref, statsHref } from "@/components/app-shell";
import { QuotasGrid } from "@/components/quotas-grid";
import { SettingsNav } from "@/components/settings-nav";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { hasScope } from "@/src/services/accounts/access";
import { projectQuotas } from "@/src/services/quotas/settings";
import { saveProjectQuotasAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Quotas" };

type Props = { params: Promise<{ org: string; project: string }> };

export default async function ProjectQuotasPage({ params }: Props) {
  const { org, project: projectRef } = await params;
  const workspace = await requireWorkspace(org, `/settings/${org}/projects/${projectRef}/quotas`, projectRef);
  const project = workspace.project;
  if (!project) notFound();
  const slug = workspace.organization.slug;
  const settings = await projectQuotas(getRuntime().storage, project);
  const canWrite = hasScope(workspace.access, "project:write");
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => quotasHref(slug, p)}>
      <SettingsNav workspace={workspace} active="quotas" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">Project settings · {project.name}</p>
          <h1 className="text-xl font-semibold">Quotas</h1>
          <p className="mt-1 max-w-2xl text-muted">
            Past a limit, SDKs are answered 429 with <code>X-Sentry-Rate-Limits</code> for that category only, and the refused items are
            counted as <em>rate limited</em> on the <a className="underline" href={statsHref(slug, { project: project.id })}>stats page</a>.
            Minutes, hours and days start on UTC boundaries; a month is the calendar month in UTC.
          </p>
        </div>
        <ActionForm action={saveProjectQuotasAction.bind(null, slug, project.slug)} className="space-y-6" testId="project-quotas">
          <Section title="Project quotas" id="quotas">
            <Card className="overflow-x-auto p-4">
              <QuotasGrid quotas={settings.quotas} disabled={!canWrite} testId="project-quota-grid" />
            </Card>
          </Section>
          <Section title="Spike protection" id="spike-protection">
            <Card className="space-y-1 p-4">
              <label className="flex items-center gap-2 font-medium">
                <input type="checkbox" name="spikeProtection" defaultChecked={settings.spikeProtection.enabled} disabled={!canWrite} />
                Limit sudden spikes automatically
              </label>
              <p className="text-xs text-subtle">
                Each hour, errors, transactions, spans and logs are limited to ten times the project&apos;s average per hour over the last
                7 days (never less than the server&apos;s floor), counted with the reason <code>spike_protection</code>.
              </p>
            </Card>
          </Section>
          {canWrite ? <SubmitButton className={buttonClass.secondary}>Save quotas</SubmitButton> : null}
        </ActionForm>
        <Section title="Organisation quotas" id="organization-quotas">
          <Card className="p-4">
            {settings.organizationQuotas.length > 0 ? (
              <>
                <p className="text-sm text-muted">This project also counts towards its organisation&apos;s quotas:</p>
                <ul className="mt-2 list-disc pl-5 text-sm" data-testid="organization-quotas">
                  {settings.organizationQuotas.map((quota) => (
                    <li key={`${quota.category}-${quota.window}`}>
                      {quota.category} per {quota.window}: {quota.used.toLocaleString("en")} of {quota.limit.toLocaleString("en")} used
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="text-sm text-muted">The organisation has no quotas.</p>
            )}
            <a className="mt-2 inline-block text-sm underline" href={`/settings/${slug}/quotas`}>
              Organisation quotas
            </a>
          </Card>
        </Section>
      </div>
    </AppShell>
  );
}
