import { ActionForm } from "@/components/action-form";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass } from "@/components/ui";
import type { ActionState } from "@/app/_lib/action-state";
import { DEFAULT_SENSITIVE_KEYS } from "@/src/services/privacy/settings";
import type { PrivacySettings } from "@/src/model";

/**
 * The data scrubbing form of the project and organisation Security & Privacy pages (docs/security.md).
 * `inherited`: the organisation's settings, shown on a project's page (what it cannot turn off, and
 * the fields it adds); absent on the organisation's own page.
 */
export function PrivacyForm({
  action,
  settings,
  inherited,
  canEdit,
  scopeNote,
}: {
  action: (previous: ActionState, form: FormData) => Promise<ActionState>;
  settings: PrivacySettings;
  inherited?: PrivacySettings;
  canEdit: boolean;
  /** Said instead of the Save button to whoever may not change the settings. */
  scopeNote: string;
}) {
  return (
    <Card className="p-4">
      <ActionForm action={action} className="space-y-5" testId="privacy-form">
        <fieldset disabled={!canEdit} className="space-y-5">
          <Toggle name="dataScrubber" checked={settings.dataScrubber} forced={inherited?.dataScrubber ?? false} label="Data scrubber">
            Replace values of sensitive keys, credit card numbers, bearer tokens and private keys with [Filtered].
          </Toggle>
          <Toggle name="dataScrubberDefaults" checked={settings.dataScrubberDefaults} forced={inherited?.dataScrubberDefaults ?? false} label="Use default scrubbers">
            Keys containing: <span className="font-mono text-xs">{DEFAULT_SENSITIVE_KEYS.join(", ")}</span>
          </Toggle>
          <Toggle name="scrubIPAddresses" checked={settings.scrubIPAddresses} forced={inherited?.scrubIPAddresses ?? false} label="Prevent storing of IP addresses">
            Drop <code>user.ip_address</code>, <code>sdk.client_ip</code> and <code>REMOTE_ADDR</code>, and never infer the client&apos;s address.
          </Toggle>
          <Field name="sensitiveFields" label="Additional sensitive fields" value={settings.sensitiveFields.join("\n")} inherited={inherited?.sensitiveFields ?? []}>
            One key name per line; values of keys containing it are filtered.
          </Field>
          <Field name="safeFields" label="Safe fields" value={settings.safeFields.join("\n")} inherited={inherited?.safeFields ?? []}>
            One key name per line; these values are never scrubbed.
          </Field>
          <div className="space-y-1">
            <label htmlFor="relayPiiConfig" className="font-medium">
              Advanced data scrubbing rules
            </label>
            <p className="text-sm text-muted">
              Relay&apos;s PII config as JSON, e.g. <code className="text-xs">{`{"applications": {"$http.headers.x-api-key": ["@anything:remove"]}}`}</code>. Patterns run on
              RE2.
            </p>
            <textarea id="relayPiiConfig" name="relayPiiConfig" rows={6} defaultValue={settings.relayPiiConfig ?? ""} className={`${inputClass} w-full font-mono text-xs`} />
          </div>
        </fieldset>
        {canEdit ? <SubmitButton className={buttonClass.primary}>Save</SubmitButton> : <p className="text-sm text-muted">{scopeNote}</p>}
      </ActionForm>
    </Card>
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
