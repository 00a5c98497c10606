import { redirect } from "next/navigation";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";

/** Project settings open on the client keys page; Source maps is the project's other page (SettingsNav). */
export default async function ProjectSettings({ params }: { params: Promise<{ org: string; project: string }> }) {
  const { org, project } = await params;
  const workspace = await requireWorkspace(org, `/settings/${org}/projects/${project}`, project);
  redirect(`/settings/${workspace.organization.slug}/projects/${workspace.project?.slug ?? project}/keys`);
}
