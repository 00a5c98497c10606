/**
 * One evaluation pass over the alert feed (storage.alerts.feed.evaluate): for each issue change the
 * ingest commit recorded, which active rules fire, and the messages they send. Runs in the
 * background job (jobs.ts), never on the SDK's request path; what it decides is written in one
 * transaction with the feed entries marked evaluated, so a crash repeats a pass, never half of one.
 */
import type { AlertRule, Issue, IssueFeedEntry, Organization, Project } from "../../model";
import type { EvaluationOutcome, Storage } from "../../storage/types";
import { heldConditions, type MatchFacts } from "./match";
import { issueMessage } from "./message";
import { recipientsOf } from "./recipients";

const MINUTE_MS = 60_000;

/** Reads shared by every entry of a pass, each done once. */
class PassReads {
  private readonly projects = new Map<string, Promise<{ project: Project; organization: Organization } | null>>();
  private readonly latestReleases = new Map<string, Promise<string | null>>();

  constructor(private readonly storage: Storage) {}

  project(projectId: string) {
    let found = this.projects.get(projectId);
    if (!found) {
      found = (async () => {
        const project = await this.storage.projects.getById(projectId);
        const organization = project ? await this.storage.organizations.getById(project.organizationId) : null;
        return project && organization ? { project, organization } : null;
      })();
      this.projects.set(projectId, found);
    }
    return found;
  }

  latestRelease(project: Project) {
    let found = this.latestReleases.get(project.id);
    if (!found) {
      found = this.storage.releases.list(project.organizationId, { projectIds: [project.id], limit: 1 }).then((list) => list[0]?.version ?? null);
      this.latestReleases.set(project.id, found);
    }
    return found;
  }
}

export async function decide(storage: Storage, publicUrl: string, entries: IssueFeedEntry[], now: number): Promise<EvaluationOutcome> {
  const outcome: EvaluationOutcome = { fired: [], deliveries: [] };
  const rules = await storage.alerts.rules.activeFor([...new Set(entries.map((entry) => entry.projectId))]);
  if (rules.length === 0) return outcome;
  const rulesOf = new Map<string, AlertRule[]>();
  for (const rule of rules) rulesOf.set(rule.projectId, [...(rulesOf.get(rule.projectId) ?? []), rule]);
  const reads = new PassReads(storage);
  // When each (rule, issue) last fired, including firings earlier in this pass.
  const lastFired = new Map<string, Map<string, number>>();

  for (const entry of entries) {
    const projectRules = rulesOf.get(entry.projectId);
    if (!projectRules) continue;
    const where = await reads.project(entry.projectId);
    const issue = await storage.issues.getById(entry.issueId);
    if (!where || !issue) continue;
    const snoozedUntil = await storage.alerts.settings.snoozedUntil(issue.id);
    if (snoozedUntil !== null && snoozedUntil > now) continue;
    let fired = lastFired.get(issue.id);
    if (!fired) {
      fired = await storage.alerts.rules.lastFired(issue.id, projectRules.map((rule) => rule.id));
      lastFired.set(issue.id, fired);
    }
    const facts = factsOf(storage, reads, where.project, issue, entry);
    for (const rule of projectRules) {
      // The action interval runs per condition: repeats of one trigger wait it out, a different one
      // (a regression after the new-issue alert) is heard at once.
      const inInterval = (condition: string) => {
        const previous = fired.get(`${rule.id}:${condition}`);
        return previous !== undefined && entry.committed - previous < rule.frequency * MINUTE_MS;
      };
      const held = await heldConditions(rule, entry, facts);
      const trigger = held.find((condition) => !inInterval(condition.id));
      if (!trigger) continue;
      for (const condition of held) {
        fired.set(`${rule.id}:${condition.id}`, entry.committed);
        outcome.fired.push({ ruleId: rule.id, issueId: issue.id, condition: condition.id, at: entry.committed });
      }
      const message = issueMessage(publicUrl, { ...where, rule, issue, entry, trigger: trigger.reason });
      for (const recipient of await recipientsOf(storage, where.organization, where.project, rule.actions)) {
        outcome.deliveries.push({
          ruleId: rule.id, projectId: where.project.id, issueId: issue.id, kind: "issue", channel: recipient.channel, target: recipient.target,
          format: recipient.channel === "webhook" ? recipient.format : null, message,
          dedupeKey: `issue:${rule.id}:${issue.id}:${entry.id}:${recipient.channel}:${recipient.target}`,
        });
      }
    }
  }
  return outcome;
}

function factsOf(storage: Storage, reads: PassReads, project: Project, issue: Issue, entry: IssueFeedEntry): MatchFacts {
  const windows = new Map<number, Promise<{ count: number; users: Set<string> }>>();
  return {
    issue,
    latestRelease: () => reads.latestRelease(project),
    window(ms) {
      let found = windows.get(ms);
      if (!found) {
        found = storage.alerts.feed.window(issue.id, entry.committed - ms, entry.id);
        windows.set(ms, found);
      }
      return found;
    },
  };
}
