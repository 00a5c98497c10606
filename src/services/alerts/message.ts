/** What an alert says, frozen into the outbox row when the rule fires (AlertMessage). */
import type { AlertMessage, AlertRule, Issue, IssueFeedEntry, Organization, Project } from "../../model";

export function issueUrl(publicUrl: string, organization: Organization, issueId: string): string {
  return `${publicUrl}/organizations/${organization.slug}/issues/${issueId}/`;
}

export function rulesUrl(publicUrl: string, organization: Organization, project: Project): string {
  return `${publicUrl}/organizations/${organization.slug}/alerts/${project.slug}/`;
}

export function issueMessage(
  publicUrl: string,
  context: { organization: Organization; project: Project; rule: AlertRule; issue: Issue; entry: IssueFeedEntry; trigger: string },
): AlertMessage {
  const { organization, project, rule, issue, entry, trigger } = context;
  const url = issueUrl(publicUrl, organization, issue.id);
  return {
    kind: "issue",
    trigger,
    rule: { id: rule.id, name: rule.name },
    organization: { slug: organization.slug },
    project: { id: project.id, slug: project.slug, name: project.name },
    issue: {
      id: issue.id, shortId: issue.shortId, title: issue.title, culprit: issue.culprit, level: entry.level, status: issue.status,
      count: issue.count, userCount: issue.userCount, firstSeen: issue.firstSeen, lastSeen: issue.lastSeen,
      release: entry.release, environment: entry.tags.find(([key]) => key === "environment")?.[1] ?? null, url,
    },
    url,
    firedAt: entry.committed,
  };
}

export function testMessage(publicUrl: string, context: { organization: Organization; project: Project; rule: AlertRule; now: number }): AlertMessage {
  const { organization, project, rule, now } = context;
  return {
    kind: "test",
    trigger: "Test notification",
    rule: { id: rule.id, name: rule.name },
    organization: { slug: organization.slug },
    project: { id: project.id, slug: project.slug, name: project.name },
    issue: null,
    url: rulesUrl(publicUrl, organization, project),
    firedAt: now,
  };
}
