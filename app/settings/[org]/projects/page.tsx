import { redirect } from "next/navigation";

export const dynamic = "force-dynamic";

export default async function SettingsProjects({ params }: { params: Promise<{ org: string }> }) {
  redirect(`/organizations/${(await params).org}/projects`);
}
