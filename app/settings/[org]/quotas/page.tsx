import type { Metadata } from "next";
import { ActionForm } from "@/components/action-form";
import { AppShell, issuesHref } from "@/components/app-shell";
import { QuotasGrid } from "@/components/quotas-grid";
import { SettingsNav } from "@/components/settings-nav";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { hasScope } from "@/src/services/accounts/access";
import { organizationQuotas } from "@/src/services/quotas/settings";
import { saveOrganizationQuotasAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Organisation quotas" };

export default async function OrganizationQuotasPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const workspace = await requireWorkspace(org, `/settings/${org}/quotas`);
  const { organization, access } = workspace;
  const settings = await organizationQuotas(getRuntime().storage, organization);
  const canWrite = hasScope(access, "org:write");
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => issuesHref(organization.slug, p)}>
      <SettingsNav workspace={workspace} active="org-quotas" />
      <div className="mx-auto max-w-4xl space-y-6">
        <div>
          <p className="text-sm text-muted">Organisation settings · {organization.name}</p>
          <h1 className="text-xl font-semibold">Organisation quotas</h1>
          <p className="mt-1 max-w-2xl text-muted">
            These limits count every project of {organization.name} together. Past one, SDKs are answered 429 with{" "}
            <code>X-Sentry-Rate-Limits</code> (scope <code>organization</code>) for that category only. Each project can have its own quotas and
            spike protection too, under its settings.
          </p>
        </div>
        <ActionForm action={saveOrganizationQuotasAction.bind(null, organization.slug)} className="space-y-4" testId="organization-quotas">
          <Section title="Quotas" id="quotas">
            <Card className="overflow-x-auto p-4">
              <QuotasGrid quotas={settings.quotas} disabled={!canWrite} testId="organization-quota-grid" />
            </Card>
          </Section>
          {canWrite ? <SubmitButton className={buttonClass.secondary}>Save quotas</SubmitButton> : null}
        </ActionForm>
      </div>
    </AppShell>
  );
}
