import type { Metadata } from "next";
import { AppShell, issuesHref } from "@/components/app-shell";
import { PrivacyForm } from "@/components/privacy-form";
import { SettingsNav } from "@/components/settings-nav";
import { Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { hasScope } from "@/src/services/accounts/access";
import { organizationPrivacy } from "@/src/services/privacy/settings";
import { getRuntime } from "@/src/runtime";
import { saveOrganizationPrivacyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Security & Privacy" };

/**
 * Settings → organisation → Security & Privacy: data scrubbing for every project of the organisation
 * (docs/security.md); the same form as a project's, whose page shows what it inherits from here.
 */
export default async function OrganizationSecurityPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const workspace = await requireWorkspace(org, `/settings/${org}/security`);
  const { organization, access } = workspace;
  const settings = await organizationPrivacy(getRuntime().storage, organization);
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => issuesHref(organization.slug, p)}>
      <SettingsNav workspace={workspace} active="org-security" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">Organisation settings · {organization.name}</p>
          <h1 className="text-xl font-semibold">Security &amp; Privacy</h1>
          <p className="mt-1 max-w-2xl text-muted">
            These apply to every project of the organisation, on top of each project&apos;s own: a setting turned on here cannot be turned off
            by a project, and the fields and rules here are added to the project&apos;s.
          </p>
        </div>
        <Section title="Data scrubbing" id="data-scrubbing">
          <PrivacyForm
            action={saveOrganizationPrivacyAction.bind(null, organization.slug)}
            settings={settings}
            canEdit={hasScope(access, "org:write")}
            scopeNote="Changing these needs org:write."
          />
        </Section>
      </div>
    </AppShell>
  );
}
