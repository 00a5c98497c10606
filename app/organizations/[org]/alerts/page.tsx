import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AppShell } from "@/components/app-shell";
import { EmptyState } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alerts" };

type Props = { params: Promise<{ org: string }> };

/** The selected project's alert rules; with no project there is nothing to alert on yet. */
export default async function AlertsPage({ params }: Props) {
  const { org } = await params;
  const workspace = await requireWorkspace(org, `/organizations/${org}/alerts`);
  if (workspace.project) redirect(`/organizations/${workspace.organization.slug}/alerts/${workspace.project.slug}`);
  return (
    <AppShell workspace={workspace} active="alerts" projectHref={(p) => `/organizations/${workspace.organization.slug}/alerts/${p.slug}`}>
      <EmptyState title="No project yet">Alert rules belong to a project: create one first.</EmptyState>
    </AppShell>
  );
}
