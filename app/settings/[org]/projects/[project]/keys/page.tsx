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
import { allowedDomains } from "@/src/services/projects/allowed-domains";
import { createKeyAction, revokeKeyAction, setAllowedDomainsAction, setKeyActiveAction, updateKeyAction } from "./actions";

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
  const domains = await allowedDomains(storage, project);
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
              <KeyCard
                key={key.id}
                projectKey={key}
                dsn={dsnFor(publicUrl, key)}
                organizationSlug={slug}
                projectSlug={project.slug}
                canWrite={hasScope(workspace.access, "project:write")}
                canRevoke={hasScope(workspace.access, "project:admin")}
              />
            ))}
          </ul>
        </Section>
        <Section title="Allowed domains" id="allowed-domains">
          <Card className="space-y-2 p-4">
            <p className="text-sm text-muted">
              Browser SDK traffic (requests with an <code>Origin</code> or <code>Referer</code>) is accepted only from these domains, one per
              line: <code>*</code> for any, <code>example.com</code>, <code>*.example.com</code> (with its subdomains), optionally with a scheme or
              port. An empty list refuses all browser traffic. Server SDKs are not affected.
            </p>
            {hasScope(workspace.access, "project:write") ? (
              <ActionForm action={setAllowedDomainsAction.bind(null, slug, project.slug)} className="space-y-2" testId="allowed-domains">
                <label htmlFor="allowed-domains-input" className="sr-only">
                  Allowed domains
                </label>
                <textarea id="allowed-domains-input" name="allowedDomains" rows={3} defaultValue={domains.join("\n")} className={`${inputClass} w-full font-mono`} />
                <SubmitButton className={buttonClass.secondary}>Save domains</SubmitButton>
              </ActionForm>
            ) : (
              <p className="font-mono text-sm">{domains.length === 0 ? "(none)" : domains.join(", ")}</p>
            )}
          </Card>
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

interface KeyCardProps {
  projectKey: ProjectKey;
  dsn: string;
  organizationSlug: string;
  projectSlug: string;
  canWrite: boolean;
  canRevoke: boolean;
}

function KeyCard({ projectKey, dsn, organizationSlug, projectSlug, canWrite, canRevoke }: KeyCardProps) {
  const limit = projectKey.rateLimit;
  const id = `key-${projectKey.id}`;
  return (
    <li>
      <Card className="space-y-2 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="font-semibold">{projectKey.label || projectKey.publicKey.slice(0, 14)}</p>
          <div className="flex items-center gap-2 text-xs text-subtle">
            {projectKey.isActive ? <Pill tone="green">Active</Pill> : <Pill>Disabled</Pill>}
            <span title={formatAbsolute(projectKey.dateCreated)}>Created {formatAbsolute(projectKey.dateCreated).slice(0, 10)}</span>
          </div>
        </div>
        <DsnField dsn={dsn} />
        <p className="text-xs text-subtle">
          Public key <code className="font-mono">{projectKey.publicKey}</code> · Project id <code className="font-mono">{projectKey.projectId}</code> ·{" "}
          {limit ? `Rate limit: ${limit.count} events per ${limit.window} s` : "No rate limit"}
        </p>
        {canWrite ? (
          <div className="flex flex-wrap items-end justify-between gap-3 border-t border-line pt-3" data-testid="key-controls">
            <ActionForm action={updateKeyAction.bind(null, organizationSlug, projectSlug, projectKey.publicKey)} className="flex flex-wrap items-end gap-2">
              <label className="text-xs text-subtle" htmlFor={`${id}-label`}>
                Name
                <input id={`${id}-label`} name="label" defaultValue={projectKey.label} maxLength={64} className={`${inputClass} mt-1 block w-40`} />
              </label>
              <label className="text-xs text-subtle" htmlFor={`${id}-count`}>
                Events
                <input id={`${id}-count`} name="rateLimitCount" type="number" min={0} defaultValue={limit?.count ?? ""} className={`${inputClass} mt-1 block w-24`} />
              </label>
              <label className="text-xs text-subtle" htmlFor={`${id}-window`}>
                per seconds
                <input id={`${id}-window`} name="rateLimitWindow" type="number" min={1} max={86400} defaultValue={limit?.window ?? ""} className={`${inputClass} mt-1 block w-24`} />
              </label>
              <SubmitButton className={buttonClass.secondary}>Save</SubmitButton>
            </ActionForm>
            <div className="flex items-center gap-2">
              <ActionForm action={setKeyActiveAction.bind(null, organizationSlug, projectSlug, projectKey.publicKey, !projectKey.isActive)}>
                <SubmitButton className={buttonClass.secondary}>{projectKey.isActive ? "Disable" : "Enable"}</SubmitButton>
              </ActionForm>
              {canRevoke ? (
                <ActionForm action={revokeKeyAction.bind(null, organizationSlug, projectSlug, projectKey.publicKey)}>
                  <SubmitButton className={buttonClass.ghost}>Revoke</SubmitButton>
                </ActionForm>
              ) : null}
            </div>
          </div>
        ) : null}
      </Card>
    </li>
  );
}
