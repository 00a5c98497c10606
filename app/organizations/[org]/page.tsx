import { redirect } from "next/navigation";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";

export default async function OrganizationHome({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const { organization } = await requireWorkspace(org, `/organizations/${org}`);
  redirect(`/organizations/${organization.slug}/issues`);
}
