import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { SettingsNav } from "@/components/settings-nav";
import { requireWorkspace } from "@/app/_lib/session";
import { hasScope } from "@/src/services/accounts/access";
import { AppShell, keysHref } from "@/components/app-shell";
import { formatAbsolute } from "@/components/format";
import { DsnField, SetupGuide, storeUrlFor } from "@/components/setup-guide";
import { firstValues, type RawSearchParams } from "@/components/search-params";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass, Pill, Section } from "@/components/ui";
import { getRuntime } from "@/src/runtime";
import { listKeys } from "@/src/services/keys/list-keys";
import { dsnFor } from "@/src/services/projects/dsn";
import type { ProjectKey } from "@/src/model";
import { createKeyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Client keys (DSN)" };

type Props = { params: Promise<{ org: string; project: string }>; searchParams: Promise<RawSearchParams> };

export default async function KeysPage({ params, searchParams }: Props) {
  const { org, project: projectRef } = await params;
  const { created } = firstValues(await searchParams);
  const { storage, publicUrl } = getRuntime();
  const workspace = await requireWorkspace(org, `/settings/${org}/projects/${projectRef}/keys`, projectRef);
  const project = workspace.project;
  if (!project) notFound();
  const keys = await listKeys(storage, project);
  const active = keys.find((key) => key.isActive);
  const slug = workspace.organization.slug;
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => keysHref(slug, p)}>
      <SettingsNav workspace={workspace} active="keys" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">Project settings · {project.name}</p>
          <h1 className="text-xl font-semibold">Client keys (DSN)</h1>
          <p className="mt-1 max-w-2xl text-muted">
            A DSN tells an SDK where to send events. It is safe to ship in browser code: it only allows sending events to this
            project.
          </p>
        </div>
        {created ? (
          <p role="status" className="rounded-lg border border-emerald-300 bg-emerald-50 px-4 py-3 text-emerald-900 dark:border-emerald-500/40 dark:bg-emerald-500/10 dark:text-emerald-200">
            Project <strong>{project.name}</strong> is ready. Set up an SDK with the DSN below to send its first event.
          </p>
        ) : null}
        <Section
          title="Keys"
          id="keys"
          aside={
            hasScope(workspace.access, "project:write") ? (
              <ActionForm action={createKeyAction.bind(null, slug, project.slug)} className="flex flex-wrap items-center justify-end gap-2">
                <label htmlFor="key-label" className="sr-only">
                  Label of the new key
                </label>
                <input id="key-label" name="label" placeholder="Label (optional)" maxLength={64} className={`${inputClass} w-40`} />
                <SubmitButton className={buttonClass.secondary}>New key</SubmitButton>
              </ActionForm>
            ) : null
          }
        >
          <ul className="space-y-3" data-testid="project-keys">
            {keys.map((key) => (
              <KeyCard key={key.id} projectKey={key} dsn={dsnFor(publicUrl, key)} />
            ))}
          </ul>
        </Section>
        {active ? (
          <Section title="Set up an SDK" id="setup">
            <Card className="p-4">
              <SetupGuide dsn={dsnFor(publicUrl, active)} storeUrl={storeUrlFor(publicUrl, project.id, active.publicKey)} showDsn={false} />
            </Card>
          </Section>
        ) : null}
      </div>
    </AppShell>
  );
}

function KeyCard({ projectKey, dsn }: { projectKey: ProjectKey; dsn: string }) {
  return (
    <li>
      <Card className="space-y-2 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="font-semibold">{projectKey.label}</p>
          <div className="flex items-center gap-2 text-xs text-subtle">
            {projectKey.isActive ? <Pill tone="green">Active</Pill> : <Pill>Disabled</Pill>}
            <span title={formatAbsolute(projectKey.dateCreated)}>Created {formatAbsolute(projectKey.dateCreated).slice(0, 10)}</span>
          </div>
        </div>
        <DsnField dsn={dsn} />
        <p className="text-xs text-subtle">
          Public key <code className="font-mono">{projectKey.publicKey}</code> · Project id <code className="font-mono">{projectKey.projectId}</code>
        </p>
      </Card>
    </li>
  );
}
