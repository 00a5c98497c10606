import type { Metadata } from "next";
import Link from "next/link";
import { appErrorOf } from "@/components/app-error";
import { requestNow } from "@/components/request-now";
import { AuthCard, FormAlert, LabeledInput, waitText } from "@/components/auth-card";
import { firstValues, type RawSearchParams } from "@/components/search-params";
import { buttonClass } from "@/components/ui";
import { FORM_PROBLEMS, isFormProblem } from "@/app/_lib/form-problems";
import { currentPrincipal } from "@/app/_lib/session";
import { MIN_PASSWORD_LENGTH } from "@/src/auth/password";
import { getRuntime } from "@/src/runtime";
import { openInvite } from "@/src/services/accounts/members";
import type { Invite, Organization } from "@/src/model";

export const dynamic = "force-dynamic";
// The secret is in the path: the page names no referrer to other sites. ("no-referrer" would also make
// Chromium send "Origin: null" with the forms below, which the same-origin check refuses.)
export const metadata: Metadata = { title: "Invitation", referrer: "same-origin" };

type Props = { params: Promise<{ secret: string }>; searchParams: Promise<RawSearchParams> };

export default async function InvitePage({ params, searchParams }: Props) {
  const { secret } = await params;
  const search = firstValues(await searchParams);
  let opened: { invite: Invite; organization: Organization };
  try {
    opened = await openInvite(getRuntime().storage, secret, requestNow());
  } catch (error) {
    const appError = appErrorOf(error);
    if (!appError) throw error;
    return (
      <AuthCard title="Invitation">
        <FormAlert>{appError.message}</FormAlert>
        <Link href="/login" className={buttonClass.secondary}>
          Sign in
        </Link>
      </AuthCard>
    );
  }
  const { invite, organization } = opened;
  const principal = await currentPrincipal();
  const action = `/auth/invite/${secret}`;
  const wait = Number(search.wait);
  const problem =
    search.error === "throttled" ? (
      <FormAlert>Too many failed login attempts. Try again in {waitText(Number.isFinite(wait) && wait > 0 ? Math.round(wait) : 60)}.</FormAlert>
    ) : isFormProblem(search.error) ? (
      <FormAlert>{FORM_PROBLEMS[search.error]}</FormAlert>
    ) : null;
  return (
    <AuthCard
      title={`Join ${organization.name}`}
      intro={
        <p data-testid="invite-summary">
          You are invited to <strong>{organization.name}</strong> as <strong>{invite.role}</strong>.
        </p>
      }
    >
      {problem}
      {principal ? (
        <form method="post" action={action}>
          <input type="hidden" name="mode" value="join" />
          <p className="mb-3 text-sm text-muted">
            Signed in as <strong className="text-fg">{principal.user.email}</strong>.
          </p>
          <button type="submit" className={`${buttonClass.primary} w-full`}>
            Join {organization.name}
          </button>
        </form>
      ) : (
        <>
          <form method="post" action={action} data-testid="invite-signup">
            <input type="hidden" name="mode" value="signup" />
            <h2 className="mb-2 font-semibold">Create an account</h2>
            <LabeledInput id="signup-name" name="name" label="Your name" autoComplete="name" maxLength={100} />
            <LabeledInput id="signup-email" name="email" type="email" label="Email" autoComplete="username" required defaultValue={invite.email ?? undefined} />
            <LabeledInput id="signup-password" name="password" type="password" label="Password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required hint={`At least ${MIN_PASSWORD_LENGTH} characters.`} />
            <LabeledInput id="signup-confirm" name="confirm" type="password" label="Repeat the password" autoComplete="new-password" required />
            <button type="submit" className={`${buttonClass.primary} w-full`}>
              Create account and join
            </button>
          </form>
          <form method="post" action={action} className="mt-5 border-t border-line pt-4" data-testid="invite-login">
            <input type="hidden" name="mode" value="login" />
            <h2 className="mb-2 font-semibold">Already have an account?</h2>
            <LabeledInput id="login-email" name="email" type="email" label="Email" autoComplete="username" required />
            <LabeledInput id="login-password" name="password" type="password" label="Password" autoComplete="current-password" required />
            <button type="submit" className={`${buttonClass.secondary} w-full`}>
              Sign in and join
            </button>
          </form>
        </>
      )}
    </AuthCard>
  );
}
