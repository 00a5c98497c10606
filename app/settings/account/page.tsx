import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { AppShell, issuesHref } from "@/components/app-shell";
import { formatAbsolute } from "@/components/format";
import { requestNow } from "@/components/request-now";
import { SettingsNav } from "@/components/settings-nav";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass, RelativeTime, Section } from "@/components/ui";
import { requireUser, requireWorkspace } from "@/app/_lib/session";
import { MIN_PASSWORD_LENGTH } from "@/src/auth/password";
import { SCOPES } from "@/src/auth/scopes";
import { getRuntime } from "@/src/runtime";
import { organizationsOf } from "@/src/services/accounts/access";
import { listApiTokens } from "@/src/services/accounts/tokens";
import { changePasswordAction, createTokenAction, revokeTokenAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "My account" };

const DEFAULT_SCOPES = new Set(["org:read", "project:read", "event:read"]);

export default async function AccountPage() {
  const principal = await requireUser("/settings/account");
  const { storage } = getRuntime();
  const [first] = await organizationsOf(storage, principal.user);
  if (!first) redirect("/");
  const workspace = await requireWorkspace(first.slug, "/settings/account");
  const tokens = await listApiTokens(storage, principal.user);
  const now = requestNow();
  const { user } = principal;
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => issuesHref(first.slug, p)}>
      <SettingsNav workspace={workspace} active="account" />
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <h1 className="text-xl font-semibold">My account</h1>
          <p className="text-muted">
            {user.name} · <span data-testid="account-email">{user.email}</span>
          </p>
        </div>

        <Section title="Password" id="password">
          <Card className="p-4">
            <ActionForm action={changePasswordAction} className="grid max-w-md gap-3">
              <PasswordField id="current-password" name="currentPassword" label="Current password" autoComplete="current-password" />
              <PasswordField id="new-password" name="newPassword" label="New password" autoComplete="new-password" hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} />
              <PasswordField id="confirm-password" name="confirm" label="Repeat the new password" autoComplete="new-password" />
              <div>
                <SubmitButton className={buttonClass.primary}>Change password</SubmitButton>
              </div>
            </ActionForm>
          </Card>
        </Section>

        <Section title="Sessions" id="sessions">
          <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
            <p className="text-sm text-muted">Signed in on a computer you no longer use? End every session, this one included.</p>
            <form method="post" action="/auth/logout">
              <input type="hidden" name="everywhere" value="1" />
              <button type="submit" className={buttonClass.secondary}>
                Log out everywhere
              </button>
            </form>
          </Card>
        </Section>

        <Section title="API tokens" id="tokens">
          <Card className="space-y-4 p-4">
            <p className="text-sm text-muted">
              Tokens act as you, with the scopes you choose, limited to what your role allows. Send them as <code className="font-mono">Authorization: Bearer …</code>.
            </p>
            <ActionForm action={createTokenAction} testId="create-token" secretLabel="Your new token — copy it now: it will not be shown again.">
              <label htmlFor="token-name" className="mb-1 block text-sm font-medium">
                Name
              </label>
              <input id="token-name" name="name" required maxLength={100} placeholder="CI releases" className={`${inputClass} max-w-sm`} />
              <fieldset className="mt-3">
                <legend className="mb-1 text-sm font-medium">Scopes</legend>
                <div className="grid grid-cols-2 gap-1 sm:grid-cols-3">
                  {SCOPES.map((scope) => (
                    <label key={scope} className="flex items-center gap-2 font-mono text-xs">
                      <input type="checkbox" name="scopes" value={scope} defaultChecked={DEFAULT_SCOPES.has(scope)} />
                      {scope}
                    </label>
                  ))}
                </div>
              </fieldset>
              <div className="mt-3">
                <SubmitButton className={buttonClass.primary}>Create token</SubmitButton>
              </div>
            </ActionForm>
            {tokens.length === 0 ? (
              <p className="text-sm text-subtle">No tokens yet.</p>
            ) : (
              <ul className="divide-y divide-line rounded-md border border-line" data-testid="token-list">
                {tokens.map((token) => (
                  <li key={token.id} className="flex flex-wrap items-start justify-between gap-2 px-3 py-2">
                    <div className="min-w-0">
                      <p className="font-medium">
                        {token.name} <span className="font-mono text-xs text-subtle">…{token.tokenLastChars}</span>
                      </p>
                      <p className="font-mono text-[11px] text-muted">{token.scopes.join(" ")}</p>
                      <p className="text-xs text-subtle">
                        Created <span title={formatAbsolute(token.dateCreated)}>{formatAbsolute(token.dateCreated).slice(0, 10)}</span> · Last used{" "}
                        {token.lastUsed !== null ? <RelativeTime ms={token.lastUsed} now={now} /> : "never"}
                      </p>
                    </div>
                    <ActionForm action={revokeTokenAction.bind(null, token.id)}>
                      <SubmitButton className={buttonClass.secondary}>Revoke</SubmitButton>
                    </ActionForm>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </Section>
      </div>
    </AppShell>
  );
}

function PasswordField({ id, name, label, autoComplete, hint }: { id: string; name: string; label: string; autoComplete: string; hint?: string }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input id={id} name={name} type="password" required autoComplete={autoComplete} className={inputClass} />
      {hint ? <p className="mt-1 text-xs text-subtle">{hint}</p> : null}
    </div>
  );
}
