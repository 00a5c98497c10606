import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { AppShell } from "@/components/app-shell";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, EmptyState, Pill, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { getRuntime } from "@/src/runtime";
import { hasScope } from "@/src/services/accounts/access";
import { emailOnFor } from "@/src/services/alerts/deliveries";
import { describeRule } from "@/src/services/alerts/rule-form";
import { listRules } from "@/src/services/alerts/rules";
import { describeMetricRule, STATE_TONES } from "@/src/services/alerts/metric-form";
import { listMetricRules } from "@/src/services/alerts/metric-rules";
import { setMyEmailAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alert rules" };

type Props = { params: Promise<{ org: string; project: string }> };

export default async function ProjectAlertsPage({ params }: Props) {
  const { org, project: projectRef } = await params;
  const workspace = await requireWorkspace(org, `/organizations/${org}/alerts/${projectRef}`, projectRef);
  const project = workspace.project;
  if (!project) notFound();
  const { storage } = getRuntime();
  const slug = workspace.organization.slug;
  const base = `/organizations/${slug}/alerts/${project.slug}`;
  const rules = await listRules(storage, project);
  const emailOn = await emailOnFor(storage, workspace.access.principal.user.id, project);
  const canWrite = hasScope(workspace.access, "project:write");
  // Metric alerts (issue 34 item 2).
  const metricRules = await listMetricRules(storage, workspace.access, [project.id]);
  const canWriteMetric = hasScope(workspace.access, ["org:write", "alerts:write"]);
  return (
    <AppShell workspace={workspace} active="alerts" projectHref={(p) => `/organizations/${slug}/alerts/${p.slug}`}>
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">Alerts · {project.name}</p>
          <h1 className="text-xl font-semibold">Alert rules</h1>
          <p className="mt-1 max-w-2xl text-muted">
            Each rule sends email or a webhook when an issue of this project is new, regresses, comes back or gets busy — at most once
            per issue per action interval.
          </p>
        </div>
        <Section
          title="Rules"
          id="rules"
          aside={canWrite ? <Link href={`${base}/new`} className={buttonClass.secondary}>New alert rule</Link> : null}
        >
          {rules.length === 0 ? (
            <EmptyState title="No alert rules">Nobody hears of this project&apos;s issues until a rule says who should.</EmptyState>
          ) : (
            <ul className="space-y-2" data-testid="alert-rules">
              {rules.map((rule) => {
                const { when, then } = describeRule(rule);
                return (
                  <li key={rule.id}>
                    <Card className="p-4">
                      <div className="flex flex-wrap items-center gap-2">
                        <Link href={`${base}/${rule.id}`} className="font-medium hover:underline">
                          {rule.name}
                        </Link>
                        {rule.muted ? <Pill tone="amber">muted</Pill> : <Pill tone="green">active</Pill>}
                        <span className="text-xs text-subtle">at most every {rule.frequency} min per issue</span>
                      </div>
                      <p className="mt-1 text-sm text-muted">
                        When {when}{rule.environment ? ` in ${rule.environment}` : ""}{rule.filters.length > 0 ? ` (${rule.filters.length} filter${rule.filters.length > 1 ? "s" : ""})` : ""}: {then}.
                      </p>
                    </Card>
                  </li>
                );
              })}
            </ul>
          )}
        </Section>
        <Section
          title="Metric alerts"
          id="metric-rules"
          aside={canWriteMetric ? <Link href={`${base}/metric/new`} className={buttonClass.secondary}>New metric alert</Link> : null}
        >
          {metricRules.length === 0 ? (
            <EmptyState title="No metric alerts">Watch error counts, users, crash-free sessions or p95 durations over a window.</EmptyState>
          ) : (
            <ul className="space-y-2" data-testid="metric-rules">
              {metricRules.map(({ rule }) => (
                <li key={rule.id}>
                  <Card className="p-4">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link href={`${base}/metric/${rule.id}`} className="font-medium hover:underline">{rule.name}</Link>
                      <Pill tone={STATE_TONES[rule.state]}>{rule.state}</Pill>
                    </div>
                    <p className="mt-1 text-sm text-muted">{describeMetricRule(rule)}.</p>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section title="Your notifications" id="my-notifications">
          <Card className="p-4">
            <ActionForm action={setMyEmailAction.bind(null, slug, project.slug)} className="flex flex-wrap items-center gap-3" testId="my-alert-email">
              <label className="flex items-center gap-2">
                <input type="checkbox" name="email" defaultChecked={emailOn} />
                Email me the alerts of {project.name} that reach me through my teams or by name
              </label>
              <SubmitButton className={buttonClass.secondary}>Save</SubmitButton>
            </ActionForm>
          </Card>
        </Section>
      </div>
    </AppShell>
  );
}
