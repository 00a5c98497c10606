import { redirect } from "next/navigation";

export const dynamic = "force-dynamic";

/** Project settings open on the client keys page, the only settings page so far. */
export default async function ProjectSettings({ params }: { params: Promise<{ org: string; project: string }> }) {
  const { org, project } = await params;
  redirect(`/settings/${org}/projects/${project}/keys`);
}
