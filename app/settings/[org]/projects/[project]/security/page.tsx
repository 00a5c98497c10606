import type { Metadata } from "next";
import { notFound } from "next/navigation";
import Link from "next/link";
import { AppShell } from "@/components/app-shell";
import { PrivacyForm } from "@/components/privacy-form";
import { SettingsNav } from "@/components/settings-nav";
import { Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { hasScope } from "@/src/services/accounts/access";
import { organizationPrivacy, projectPrivacy } from "@/src/services/privacy/settings";
import { getRuntime } from "@/src/runtime";
import { savePrivacyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Security & Privacy" };

type Props = { params: Promise<{ org: string; project: string }> };

const securityHref = (org: string, project: { slug: string }) => `/settings/${org}/projects/${project.slug}/security`;

/** Settings → project → Security & Privacy: the project's data scrubbing (docs/security.md). */
export default async function SecurityPage({ params }: Props) {
  const { org, project: projectRef } = await params;
  const { storage } = getRuntime();
  const workspace = await requireWorkspace(org, `/settings/${org}/projects/${projectRef}/security`, projectRef);
  const project = workspace.project;
  if (!project) notFound();
  const [settings, inherited] = await Promise.all([projectPrivacy(storage, project), organizationPrivacy(storage, workspace.organization)]);
  const slug = workspace.organization.slug;
  const canEdit = hasScope(workspace.access, "project:write");
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => securityHref(slug, p)}>
      <SettingsNav workspace={workspace} active="security" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">Project settings · {project.name}</p>
          <h1 className="text-xl font-semibold">Security &amp; Privacy</h1>
          <p className="mt-1 max-w-2xl text-muted">
            Data scrubbing runs on the server before anything is written: matching values are replaced with <code>[Filtered]</code> and
            the event records where, so its page can say so. The{" "}
            <Link href={`/settings/${slug}/security`} className="underline">
              organisation&apos;s settings
            </Link>{" "}
            apply to every project as well.
          </p>
        </div>
        <Section title="Data scrubbing" id="data-scrubbing">
          <PrivacyForm
            action={savePrivacyAction.bind(null, slug, project.slug)}
            settings={settings}
            inherited={inherited}
            canEdit={canEdit}
            scopeNote="Changing these needs project:write."
          />
        </Section>
      </div>
    </AppShell>
  );
}
