import { redirect } from "next/navigation";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";

/** Organisation settings open on the members page. */
export default async function OrganizationSettings({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const { organization } = await requireWorkspace(org, `/settings/${org}`);
  redirect(`/settings/${organization.slug}/members`);
}
