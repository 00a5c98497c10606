import { redirect } from "next/navigation";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";

export default async function SettingsProjects({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const { organization } = await requireWorkspace(org, `/settings/${org}/projects`);
  redirect(`/organizations/${organization.slug}/projects`);
}
