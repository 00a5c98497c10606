import type { Metadata } from "next";
import Link from "next/link";
import { LabelledField } from "@/components/labelled-field";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { DeliveryTable } from "@/components/alert-delivery-table";
import { appErrorOf } from "@/components/app-error";
import { AppShell } from "@/components/app-shell";
import { formatAbsolute } from "@/components/format";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass, Pill, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { METRIC_AGGREGATES, METRIC_TIME_WINDOWS, type MetricRule } from "@/src/model";
import { getRuntime } from "@/src/runtime";
import { hasScope } from "@/src/services/accounts/access";
import { formOfMetricRule, STATE_TONES, type MetricFormValues } from "@/src/services/alerts/metric-form";
import { getMetricRule, metricDeliveryLog } from "@/src/services/alerts/metric-rules";
import { deleteMetricRuleAction, saveMetricRuleAction } from "../../../metric-actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Metric alert" };

type Props = { params: Promise<{ org: string; project: string; ruleId: string }> };

/** One metric alert rule (issue 34 item 2): its state, the editor (`new` for a new rule) and its delivery log. */
export default async function MetricAlertPage({ params }: Props) {
  const { org, project: projectRef, ruleId } = await params;
  const workspace = await requireWorkspace(org, `/organizations/${org}/alerts/${projectRef}/metric/${ruleId}`, projectRef);
  const project = workspace.project;
  if (!project) notFound();
  const { storage } = getRuntime();
  const slug = workspace.organization.slug;
  const base = `/organizations/${slug}/alerts/${project.slug}`;
  const rule: MetricRule | null = ruleId === "new"
    ? null
    : await getMetricRule(storage, workspace.access, ruleId).then(
        (found) => (found.project.id === project.id ? found.rule : notFound()),
        (error: unknown) => (appErrorOf(error)?.code === "not_found" ? notFound() : Promise.reject(error)),
      );
  const canWrite = hasScope(workspace.access, ["org:write", "alerts:write"]);
  const log = rule ? await metricDeliveryLog(storage, rule) : [];
  return (
    <AppShell workspace={workspace} active="alerts" projectHref={(p) => `/organizations/${slug}/alerts/${p.slug}`}>
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">
            <Link href={base} className="hover:underline">Alerts · {project.name}</Link>
          </p>
          <h1 className="flex items-center gap-2 text-xl font-semibold">
            {rule ? rule.name : "New metric alert"}
            {rule ? <Pill tone={STATE_TONES[rule.state]}>{rule.state}</Pill> : null}
          </h1>
          {rule ? (
            <p className="mt-1 text-sm text-muted" data-testid="metric-state">
              {rule.stateChanged === null ? "Not triggered yet." : `${rule.state} since ${formatAbsolute(rule.stateChanged)}${rule.stateValue === null ? "" : ` (value ${Math.round(rule.stateValue * 100) / 100})`}.`}
              {rule.lastEvaluated === null ? "" : ` Last evaluated ${formatAbsolute(rule.lastEvaluated)}.`}
            </p>
          ) : null}
        </div>
        {rule && canWrite ? (
          <ActionForm action={deleteMetricRuleAction.bind(null, slug, project.slug, rule.id)}>
            <SubmitButton className={buttonClass.secondary}>Delete rule</SubmitButton>
          </ActionForm>
        ) : null}
        <Section title={rule ? "Rule" : "New rule"} id="rule">
          <Card className="p-4">
            <MetricEditor action={saveMetricRuleAction.bind(null, slug, project.slug, rule?.id ?? null)} values={formOfMetricRule(rule)} disabled={!canWrite} isNew={!rule} />
          </Card>
        </Section>
        {rule ? (
          <Section title="Delivery log" id="deliveries">
            <DeliveryTable deliveries={log} />
          </Section>
        ) : null}
      </div>
    </AppShell>
  );
}

function MetricEditor({ action, values, disabled, isNew }: { action: Parameters<typeof ActionForm>[0]["action"]; values: MetricFormValues; disabled: boolean; isNew: boolean }) {
  const input = (name: string, extra: { placeholder?: string; type?: string } = {}) => (
    <input name={name} defaultValue={values[name]} disabled={disabled} className={`${inputClass} w-full`} {...extra} />
  );
  return (
    <ActionForm action={action} className="space-y-5" testId="metric-rule-editor" keepValues>
      <LabelledField label="Name">{input("name")}</LabelledField>
      <div className="grid gap-3 sm:grid-cols-3">
        <LabelledField label="Metric">
          <select name="aggregate" defaultValue={values.aggregate} disabled={disabled} className={`${inputClass} w-full`}>
            {Object.entries(METRIC_AGGREGATES).map(([aggregate, { label }]) => <option key={aggregate} value={aggregate}>{label}</option>)}
          </select>
        </LabelledField>
        <LabelledField label="Window (minutes)">
          <select name="time_window" defaultValue={values.time_window} disabled={disabled} className={`${inputClass} w-full`}>
            {METRIC_TIME_WINDOWS.map((minutes) => <option key={minutes} value={String(minutes)}>{minutes}</option>)}
          </select>
        </LabelledField>
        <LabelledField label="Fires when the value is">
          <select name="threshold_type" defaultValue={values.threshold_type} disabled={disabled} className={`${inputClass} w-full`}>
            <option value="0">above</option>
            <option value="1">below</option>
          </select>
        </LabelledField>
        <LabelledField label="Critical threshold">{input("critical", { type: "text" })}</LabelledField>
        <LabelledField label="Warning threshold" hint="Optional.">{input("warning", { type: "text" })}</LabelledField>
        <LabelledField label="Resolve threshold" hint="Optional: by default it resolves once no threshold is crossed.">{input("resolve", { type: "text" })}</LabelledField>
      </div>
      <LabelledField label="Environment">{input("environment", { placeholder: "any environment" })}</LabelledField>
      <LabelledField label="Webhook URL" hint="http:// or https://; signed with the rule's secret (Sentry-Hook-Signature).">
        <span className="flex gap-2">
          {input("webhook_url", { placeholder: "https://hooks.example.com/…" })}
          <select name="webhook_format" defaultValue={values.webhook_format} disabled={disabled} className={inputClass} aria-label="webhook format">
            <option value="json">JSON</option>
            <option value="slack">Slack</option>
            <option value="discord">Discord</option>
          </select>
        </span>
      </LabelledField>
      <LabelledField label="Email addresses" hint="Comma-separated.">{input("email_addresses")}</LabelledField>
      {disabled ? null : <SubmitButton className={buttonClass.primary}>{isNew ? "Create rule" : "Save rule"}</SubmitButton>}
    </ActionForm>
  );
}
