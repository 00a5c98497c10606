import type { Metadata } from "next";
import Link from "next/link";
import { LabelledField } from "@/components/labelled-field";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/action-form";
import { DeliveryTable } from "@/components/alert-delivery-table";
import { appErrorOf } from "@/components/app-error";
import { AppShell } from "@/components/app-shell";
import { SubmitButton } from "@/components/submit-button";
import { buttonClass, Card, inputClass, Pill, Section } from "@/components/ui";
import { requireWorkspace } from "@/app/_lib/session";
import { FREQUENCY_INTERVALS, type AlertRule } from "@/src/model";
import { getRuntime } from "@/src/runtime";
import { hasScope } from "@/src/services/accounts/access";
import { listTeams } from "@/src/services/accounts/teams";
import { deliveryLog } from "@/src/services/alerts/deliveries";
import { formOfRule, type RuleFormValues } from "@/src/services/alerts/rule-form";
import { getRule } from "@/src/services/alerts/rules";
import { deleteRuleAction, muteRuleAction, saveRuleAction, testRuleAction } from "../../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Alert rule" };

type Props = { params: Promise<{ org: string; project: string; ruleId: string }> };

/** One rule: the editor (`new` for a new rule), its buttons and its delivery log. */
export default async function AlertRulePage({ params }: Props) {
  const { org, project: projectRef, ruleId } = await params;
  const workspace = await requireWorkspace(org, `/organizations/${org}/alerts/${projectRef}/${ruleId}`, projectRef);
  const project = workspace.project;
  if (!project) notFound();
  const { storage } = getRuntime();
  const slug = workspace.organization.slug;
  const base = `/organizations/${slug}/alerts/${project.slug}`;
  const rule: AlertRule | null =
    ruleId === "new" ? null : await getRule(storage, project, ruleId).catch((error: unknown) => (appErrorOf(error)?.code === "not_found" ? notFound() : Promise.reject(error)));
  const canWrite = hasScope(workspace.access, "project:write");
  const teams = await listTeams(storage, workspace.access);
  const log = rule ? await deliveryLog(storage, rule) : [];
  const values = formOfRule(rule);
  return (
    <AppShell workspace={workspace} active="alerts" projectHref={(p) => `/organizations/${slug}/alerts/${p.slug}`}>
      <div className="mx-auto max-w-4xl space-y-8">
        <div>
          <p className="text-sm text-muted">
            <Link href={base} className="hover:underline">Alerts · {project.name}</Link>
          </p>
          <h1 className="flex items-center gap-2 text-xl font-semibold">
            {rule ? rule.name : "New alert rule"}
            {rule?.muted ? <Pill tone="amber">muted</Pill> : null}
          </h1>
        </div>
        {rule && canWrite ? (
          <div className="flex flex-wrap gap-2" data-testid="rule-buttons">
            <ActionForm action={testRuleAction.bind(null, slug, project.slug, rule.id)}>
              <SubmitButton className={buttonClass.secondary}>Send test notification</SubmitButton>
            </ActionForm>
            <ActionForm action={muteRuleAction.bind(null, slug, project.slug, rule.id, !rule.muted)}>
              <SubmitButton className={buttonClass.secondary}>{rule.muted ? "Unmute" : "Mute"}</SubmitButton>
            </ActionForm>
            <ActionForm action={deleteRuleAction.bind(null, slug, project.slug, rule.id)}>
              <SubmitButton className={buttonClass.secondary}>Delete rule</SubmitButton>
            </ActionForm>
          </div>
        ) : null}
        <Section title={rule ? "Rule" : "New rule"} id="rule">
          <Card className="p-4">
            <RuleEditor action={saveRuleAction.bind(null, slug, project.slug, rule?.id ?? null)} values={values} teams={teams} disabled={!canWrite} isNew={!rule} />
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

function Check({ name, label, values, disabled }: { name: string; label: string; values: RuleFormValues; disabled: boolean }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" name={name} defaultChecked={values[name] === "on"} disabled={disabled} />
      {label}
    </label>
  );
}

function IntervalSelect({ name, values, disabled }: { name: string; values: RuleFormValues; disabled: boolean }) {
  return (
    <select name={name} defaultValue={values[name]} disabled={disabled} className={inputClass} aria-label="window">
      {Object.keys(FREQUENCY_INTERVALS).map((interval) => (
        <option key={interval} value={interval}>{interval}</option>
      ))}
    </select>
  );
}

function RuleEditor({
  action, values, teams, disabled, isNew,
}: {
  action: Parameters<typeof ActionForm>[0]["action"];
  values: RuleFormValues;
  teams: { id: string; slug: string }[];
  disabled: boolean;
  isNew: boolean;
}) {
  return (
    <ActionForm action={action} className="space-y-5" testId="rule-editor" keepValues>
      <LabelledField label="Name">
        <input name="name" defaultValue={values.name} required maxLength={256} disabled={disabled} className={`${inputClass} w-full`} />
      </LabelledField>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">When</legend>
        <select name="action_match" defaultValue={values.action_match} disabled={disabled} className={inputClass} aria-label="match">
          <option value="any">any of these happens</option>
          <option value="all">all of these hold</option>
        </select>
        <Check name="when_first_seen" label="A new issue is created" values={values} disabled={disabled} />
        <Check name="when_regression" label="A resolved issue regresses" values={values} disabled={disabled} />
        <Check name="when_reappeared" label="A resolved or ignored issue comes back" values={values} disabled={disabled} />
        <Check name="when_latest_release" label="A new issue is first seen in the latest release" values={values} disabled={disabled} />
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Check name="when_frequency" label="An issue is seen more than" values={values} disabled={disabled} />
          <input name="frequency_value" type="number" defaultValue={values.frequency_value} disabled={disabled} className={`${inputClass} w-28`} aria-label="times" />
          times in
          <IntervalSelect name="frequency_interval" values={values} disabled={disabled} />
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Check name="when_users" label="An issue is seen by more than" values={values} disabled={disabled} />
          <input name="users_value" type="number" defaultValue={values.users_value} disabled={disabled} className={`${inputClass} w-28`} aria-label="users" />
          users in
          <IntervalSelect name="users_interval" values={values} disabled={disabled} />
        </div>
      </fieldset>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="text-sm font-medium">If (all that are filled in)</legend>
        <LabelledField label="Level at least">
          <select name="level" defaultValue={values.level ?? ""} disabled={disabled} className={`${inputClass} w-full`}>
            <option value="">any level</option>
            {["debug", "info", "warning", "error", "fatal"].map((level) => <option key={level} value={level}>{level}</option>)}
          </select>
        </LabelledField>
        <LabelledField label="Environment">
          <input name="environment" defaultValue={values.environment} placeholder="any environment" disabled={disabled} className={`${inputClass} w-full`} />
        </LabelledField>
        <LabelledField label="Tag">
          <span className="flex gap-2">
            <input name="tag_key" defaultValue={values.tag_key} placeholder="key" disabled={disabled} className={`${inputClass} w-full`} />
            <select name="tag_match" defaultValue={values.tag_match} disabled={disabled} className={inputClass} aria-label="tag match">
              <option value="eq">equals</option>
              <option value="ne">does not equal</option>
              <option value="co">contains</option>
              <option value="nc">does not contain</option>
            </select>
            <input name="tag_value" defaultValue={values.tag_value} placeholder="value" disabled={disabled} className={`${inputClass} w-full`} />
          </span>
        </LabelledField>
        <LabelledField label="Title contains">
          <input name="title_contains" defaultValue={values.title_contains} disabled={disabled} className={`${inputClass} w-full`} />
        </LabelledField>
        <LabelledField label="Release is">
          <input name="release_equals" defaultValue={values.release_equals} disabled={disabled} className={`${inputClass} w-full`} />
        </LabelledField>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Then</legend>
        <Check name="email_owners" label="Email the project's team" values={values} disabled={disabled} />
        <LabelledField label="Email a team">
          <select name="email_team" defaultValue={values.email_team ?? ""} disabled={disabled} className={inputClass}>
            <option value="">no team</option>
            {teams.map((team) => <option key={team.id} value={team.id}>#{team.slug}</option>)}
          </select>
        </LabelledField>
        <LabelledField label="Email addresses" hint="Comma-separated.">
          <input name="email_addresses" defaultValue={values.email_addresses} disabled={disabled} className={`${inputClass} w-full`} />
        </LabelledField>
        <LabelledField label="Webhook URL" hint="http:// or https://; signed with the rule's secret (Sentry-Hook-Signature).">
          <span className="flex gap-2">
            <input name="webhook_url" defaultValue={values.webhook_url} placeholder="https://hooks.example.com/…" disabled={disabled} className={`${inputClass} w-full`} />
            <select name="webhook_format" defaultValue={values.webhook_format} disabled={disabled} className={inputClass} aria-label="webhook format">
              <option value="json">JSON</option>
              <option value="slack">Slack</option>
              <option value="discord">Discord</option>
            </select>
          </span>
        </LabelledField>
      </fieldset>
      <LabelledField label="Action interval (minutes)" hint="One issue alerts at most once per interval for each trigger.">
        <input name="frequency" type="number" defaultValue={values.frequency} disabled={disabled} className={`${inputClass} w-32`} />
      </LabelledField>
      {disabled ? null : <SubmitButton className={buttonClass.primary}>{isNew ? "Create rule" : "Save rule"}</SubmitButton>}
    </ActionForm>
  );
}
