import { redirect } from "next/navigation";
import { orNotFound } from "@/components/app-error";
import { getRuntime } from "@/src/runtime";
import { loadWorkspace } from "@/src/services/ui/workspace";

export const dynamic = "force-dynamic";

/** Organisation settings: the first project's keys, or the project list when there is none. */
export default async function OrganizationSettings({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const { organization, project } = await orNotFound(() => loadWorkspace(getRuntime().storage, org));
  redirect(project ? `/settings/${organization.slug}/projects/${project.slug}/keys` : `/organizations/${organization.slug}/projects`);
}
