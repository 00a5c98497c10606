import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard, FormAlert, LabeledInput } from "@/components/auth-card";
import { firstValues, type RawSearchParams } from "@/components/search-params";
import { buttonClass } from "@/components/ui";
import { FORM_PROBLEMS, isFormProblem } from "@/app/_lib/form-problems";
import { MIN_PASSWORD_LENGTH } from "@/src/auth/password";
import { getRuntime } from "@/src/runtime";
import { needsSetup } from "@/src/services/accounts/users";
import { isSetupToken } from "@/app/_lib/setup-token";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up Periscope" };

/**
 * First run: exists only while there is no account at all, and shows its form only to someone holding
 * the setup link printed in the server console (whoever merely reaches a fresh server must not be able
 * to become its owner).
 */
export default async function SetupPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  if (!(await needsSetup(getRuntime().storage))) redirect("/login");
  const { error, token } = firstValues(await searchParams);
  if (!isSetupToken(token)) {
    return (
      <AuthCard title="Set up Periscope" intro="No account exists yet.">
        <p data-testid="setup-link-needed">
          Open the setup link the server printed in its console when it started (it ends in{" "}
          <code>/setup?token=…</code>), or create the owner with <code>npx periscope user create</code> or the{" "}
          <code>PERISCOPE_ADMIN_EMAIL</code> and <code>PERISCOPE_ADMIN_PASSWORD</code> settings.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Set up Periscope" intro="Create the owner account. The owner can invite everyone else.">
      {isFormProblem(error) ? <FormAlert>{FORM_PROBLEMS[error]}</FormAlert> : null}
      <form method="post" action="/auth/setup" data-testid="setup-form">
        <input type="hidden" name="token" value={token} />
        <LabeledInput id="name" name="name" label="Your name" autoComplete="name" maxLength={100} />
        <LabeledInput id="email" name="email" type="email" label="Email" autoComplete="username" required />
        <LabeledInput
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          minLength={MIN_PASSWORD_LENGTH}
          required
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        />
        <LabeledInput id="confirm" name="confirm" type="password" label="Repeat the password" autoComplete="new-password" required />
        <button type="submit" className={`${buttonClass.primary} w-full`}>
          Create owner account
        </button>
      </form>
    </AuthCard>
  );
}
