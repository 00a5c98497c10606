import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AppShell, issuesHref } from "@/components/app-shell";
import { formatAbsolute } from "@/components/format";
import { firstValues, hrefWith, type RawSearchParams } from "@/components/search-params";
import { SettingsNav } from "@/components/settings-nav";
import { buttonClass, Card, EmptyState } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { listAuditEntries } from "@/src/services/accounts/audit";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

const PAGE_SIZE = 50;

/** Owners and admins only; for everyone else the page does not exist. */
export default async function AuditLogPage({ params, searchParams }: { params: Promise<{ org: string }>; searchParams: Promise<RawSearchParams> }) {
  const { org } = await params;
  const { before } = firstValues(await searchParams);
  const workspace = await requireWorkspace(org, `/settings/${org}/audit-log`);
  const { access, organization } = workspace;
  if (access.role !== "owner" && access.role !== "admin") notFound();
  const cursor = before && /^\d+$/.test(before) ? before : undefined;
  const entries = await listAuditEntries(getRuntime().storage, access, PAGE_SIZE + 1, cursor);
  const page = entries.slice(0, PAGE_SIZE);
  const base = `/settings/${organization.slug}/audit-log`;
  return (
    <AppShell workspace={workspace} active="settings" projectHref={(p) => issuesHref(organization.slug, p)}>
      <SettingsNav workspace={workspace} active="audit" />
      <div className="mx-auto max-w-4xl space-y-4">
        <div>
          <h1 className="text-xl font-semibold">Audit log</h1>
          <p className="text-muted">Membership, role, token, key and project changes in {organization.name}, newest first.</p>
        </div>
        <Card className="overflow-x-auto">
          {page.length === 0 ? (
            <EmptyState title="Nothing recorded yet" />
          ) : (
            <table className="w-full text-left text-sm" data-testid="audit-log">
              <thead className="bg-surface-2 text-xs tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="px-3 py-2 font-semibold">Time (UTC)</th>
                  <th scope="col" className="px-3 py-2 font-semibold">Who</th>
                  <th scope="col" className="px-3 py-2 font-semibold">Event</th>
                  <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">Details</th>
                  <th scope="col" className="hidden px-3 py-2 font-semibold md:table-cell">Address</th>
                </tr>
              </thead>
              <tbody>
                {page.map((entry) => (
                  <tr key={entry.id} className="border-t border-line align-top">
                    <td className="px-3 py-2 whitespace-nowrap">{formatAbsolute(entry.dateCreated).slice(0, 19)}</td>
                    <td className="max-w-48 truncate px-3 py-2">{entry.actorLabel}</td>
                    <td className="px-3 py-2 font-mono text-xs">{entry.event}</td>
                    <td className="hidden max-w-md px-3 py-2 font-mono text-xs [overflow-wrap:anywhere] md:table-cell">
                      {Object.entries(entry.data)
                        .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
                        .join(" ")}
                    </td>
                    <td className="hidden px-3 py-2 font-mono text-xs md:table-cell">{entry.ipAddress ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Card>
        <nav aria-label="Pages" className="flex justify-end gap-2">
          {cursor ? (
            <Link href={base} className={buttonClass.secondary}>
              ← Newest
            </Link>
          ) : null}
          {entries.length > PAGE_SIZE ? (
            <Link href={hrefWith(base, { before: page[page.length - 1]?.id })} className={buttonClass.secondary} rel="next">
              Older →
            </Link>
          ) : null}
        </nav>
      </div>
    </AppShell>
  );
}
