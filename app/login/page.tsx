import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard, FormAlert, LabeledInput, waitText } from "@/components/auth-card";
import { firstValues, type RawSearchParams } from "@/components/search-params";
import { buttonClass } from "@/components/ui";
import { FORM_PROBLEMS } from "@/app/_lib/form-problems";
import { currentPrincipal, safeNextPath } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { needsSetup } from "@/src/services/accounts/users";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const search = firstValues(await searchParams);
  const next = safeNextPath(search.next);
  if (await needsSetup(getRuntime().storage)) redirect("/setup");
  if (await currentPrincipal()) redirect(next ?? "/");
  const wait = Number(search.wait);
  return (
    <AuthCard title="Sign in">
      {search.error === "throttled" ? (
        <FormAlert>
          Too many failed login attempts. Try again in <span data-testid="retry-wait">{waitText(Number.isFinite(wait) && wait > 0 ? Math.round(wait) : 60)}</span>.
        </FormAlert>
      ) : search.error === "credentials" ? (
        <FormAlert>{FORM_PROBLEMS.credentials}</FormAlert>
      ) : search.loggedOut === "everywhere" ? (
        <FormAlert tone="info">You are signed out on every device.</FormAlert>
      ) : search.loggedOut ? (
        <FormAlert tone="info">You are signed out.</FormAlert>
      ) : null}
      <form method="post" action="/auth/login" data-testid="login-form">
        {next ? <input type="hidden" name="next" value={next} /> : null}
        <LabeledInput id="email" name="email" type="email" label="Email" autoComplete="username" required autoFocus />
        <LabeledInput id="password" name="password" type="password" label="Password" autoComplete="current-password" required />
        <button type="submit" className={`${buttonClass.primary} w-full`}>
          Sign in
        </button>
      </form>
      <p className="mt-3 text-xs text-subtle">Forgot your password? An administrator can reset it with <code className="font-mono">npx periscope user reset-password</code>.</p>
    </AuthCard>
  );
}
