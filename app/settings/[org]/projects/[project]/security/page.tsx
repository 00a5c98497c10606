import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { AppShell } from "@/components/app-shell";
import { SettingsNav } from "@/components/settings-nav";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { hasScope } from "@/src/services/accounts/access";
import { DEFAULT_SENSITIVE_KEYS, organizationPrivacy, projectPrivacy } from "@/src/services/privacy/settings";
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
            the event records where, so its page can say so.
          </p>
        </div>
        <Section title="Data scrubbing" id="data-scrubbing">
          <Card className="p-4">
            <ActionForm action={savePrivacyAction.bind(null, slug, project.slug)} className="space-y-5" testId="privacy-form">
              <fieldset disabled={!canEdit} className="space-y-5">
                <Toggle name="dataScrubber" checked={settings.dataScrubber} forced={inherited.dataScrubber} label="Data scrubber">
                  Replace values of sensitive keys, credit card numbers, bearer tokens and private keys with [Filtered].
                </Toggle>
                <Toggle name="dataScrubberDefaults" checked={settings.dataScrubberDefaults} forced={inherited.dataScrubberDefaults} label="Use default scrubbers">
                  Keys containing: <span className="font-mono text-xs">{DEFAULT_SENSITIVE_KEYS.join(", ")}</span>
                </Toggle>
                <Toggle name="scrubIPAddresses" checked={settings.scrubIPAddresses} forced={inherited.scrubIPAddresses} label="Prevent storing of IP addresses">
                  Drop <code>user.ip_address</code>, <code>sdk.client_ip</code> and <code>REMOTE_ADDR</code>, and never infer the client&apos;s address.
                </Toggle>
                <Field name="sensitiveFields" label="Additional sensitive fields" value={settings.sensitiveFields.join("\n")} inherited={inherited.sensitiveFields}>
                  One key name per line; values of keys containing it are filtered.
                </Field>
                <Field name="safeFields" label="Safe fields" value={settings.safeFields.join("\n")} inherited={inherited.safeFields}>
                  One key name per line; these values are never scrubbed.
                </Field>
                <div className="space-y-1">
                  <label htmlFor="relayPiiConfig" className="font-medium">
                    Advanced data scrubbing rules
                  </label>
                  <p className="text-sm text-muted">
                    Relay&apos;s PII config as JSON, e.g.{" "}
                    <code className="text-xs">{`{"applications": {"$http.headers.x-api-key": ["@anything:remove"]}}`}</code>. Patterns run on RE2.
                  </p>
                  <textarea id="relayPiiConfig" name="relayPiiConfig" rows={6} defaultValue={settings.relayPiiConfig ?? ""} className={`${inputClass} w-full font-mono text-xs`} />
                </div>
              </fieldset>
              {canEdit ? <SubmitButton className={buttonClass.primary}>Save</SubmitButton> : <p className="text-sm text-muted">Changing these needs project:write.</p>}
            </ActionForm>
          </Card>
        </Section>
      </div>
    </AppShell>
  );
}

function Toggle({ name, checked, forced, label, children }: { name: string; checked: boolean; forced: boolean; label: string; children: React.ReactNode }) {
  return (
    <div className="flex items-start gap-3">
      <input id={name} name={name} type="checkbox" defaultChecked={checked} className="mt-1" />
      <div>
        <label htmlFor={name} className="font-medium">
          {label}
        </label>
        <p className="text-sm text-muted">{children}</p>
        {forced ? <p className="text-xs text-subtle">On for the whole organisation: a project cannot turn it off.</p> : null}
      </div>
    </div>
  );
}

function Field({ name, label, value, inherited, children }: { name: string; label: string; value: string; inherited: string[]; children: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={name} className="font-medium">
        {label}
      </label>
      <p className="text-sm text-muted">{children}</p>
      <textarea id={name} name={name} rows={3} defaultValue={value} className={`${inputClass} w-full font-mono text-xs`} />
      {inherited.length > 0 ? <p className="text-xs text-subtle">From the organisation: {inherited.join(", ")}</p> : null}
    </div>
  );
}
