import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth-card";
import { requireUser } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { organizationsOf } from "@/src/services/accounts/access";

export const dynamic = "force-dynamic";

/** Home: the dashboard of the person's first organisation. */
export default async function Home() {
  const principal = await requireUser("/");
  const [first] = await organizationsOf(getRuntime().storage, principal.user);
  if (first) redirect(`/organizations/${first.slug}`);
  return (
    <AuthCard title="No organization yet">
      <p className="text-sm text-muted">
        You are signed in as <strong className="text-fg">{principal.user.email}</strong> but belong to no organization. Ask an owner or admin
        for an invite link.
      </p>
      <form method="post" action="/auth/logout" className="mt-4">
        <button type="submit" className="text-sm text-accent underline">
          Sign out
        </button>
      </form>
    </AuthCard>
  );
}
