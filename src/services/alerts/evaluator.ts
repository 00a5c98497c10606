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

/** What a pass reads once per issue, however many of its entries the pass holds. */
interface IssueState {
  issue: Issue;
  snoozed: boolean;
  /** When each rule last fired per condition, including firings earlier in this pass. */
  fired: Map<string, number>;
  /** The issue's entries of this pass seen so far, in feed order (window sums add them up). */
  entries: IssueFeedEntry[];
  /** Window length → the sum up to entries[index] (one query per window per issue per pass). */
  counts: Map<number, { index: number; total: number }>;
  users: Map<number, { index: number; users: Set<string> }>;
}

export async function decide(storage: Storage, publicUrl: string, entries: IssueFeedEntry[], now: number): Promise<EvaluationOutcome> {
  const outcome: EvaluationOutcome = { fired: [], deliveries: [] };
  const rules = await storage.alerts.rules.activeFor([...new Set(entries.map((entry) => entry.projectId))]);
  if (rules.length === 0) return outcome;
  const rulesOf = new Map<string, AlertRule[]>();
  for (const rule of rules) rulesOf.set(rule.projectId, [...(rulesOf.get(rule.projectId) ?? []), rule]);
  const reads = new PassReads(storage);
  const issues = new Map<string, IssueState | null>();

  for (const entry of entries) {
    const projectRules = rulesOf.get(entry.projectId);
    if (!projectRules) continue;
    const where = await reads.project(entry.projectId);
    if (!where) continue;
    let state = issues.get(entry.issueId);
    if (state === undefined) {
      const issue = await storage.issues.getById(entry.issueId);
      const snoozedUntil = issue ? await storage.alerts.settings.snoozedUntil(issue.id) : null;
      state = issue
        ? {
            issue, snoozed: snoozedUntil !== null && snoozedUntil > now, entries: [], counts: new Map(), users: new Map(),
            fired: await storage.alerts.rules.lastFired(issue.id, projectRules.map((rule) => rule.id)),
          }
        : null;
      issues.set(entry.issueId, state);
    }
    if (!state) continue;
    state.entries.push(entry);
    if (state.snoozed) continue;
    const { issue, fired } = state;
    const facts = factsOf(storage, reads, where.project, state, entry);
    for (const rule of projectRules) {
      // The action interval runs per condition: repeats of one trigger wait it out, a different one
      // (a regression after the new-issue alert) is heard at once.
      const resting = (condition: string) => {
        const previous = fired.get(`${rule.id}:${condition}`);
        return previous !== undefined && entry.committed - previous < rule.frequency * MINUTE_MS;
      };
      const held = await heldConditions(rule, entry, facts, resting);
      const trigger = held[0];
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

/**
 * The facts of one entry. A window is summed in the database once per issue per pass, at the first
 * entry that asks; later entries of the same issue add their own counts to it (the few rows that
 * leave the window within one pass, seconds long, are not taken off).
 */
function factsOf(storage: Storage, reads: PassReads, project: Project, state: IssueState, entry: IssueFeedEntry): MatchFacts {
  const index = state.entries.length - 1;
  return {
    issue: state.issue,
    latestRelease: () => reads.latestRelease(project),
    async windowCount(ms) {
      const known = state.counts.get(ms);
      let total: number;
      if (known) {
        total = known.total;
        for (let i = known.index + 1; i <= index; i++) total += state.entries[i]!.count;
      } else {
        total = await storage.alerts.feed.windowCount(state.issue.id, entry.committed - ms, entry.id);
      }
      state.counts.set(ms, { index, total });
      return total;
    },
    async windowUsers(ms) {
      const known = state.users.get(ms);
      let users: Set<string>;
      if (known) {
        users = known.users;
        for (let i = known.index + 1; i <= index; i++) for (const user of state.entries[i]!.users) users.add(user);
      } else {
        users = await storage.alerts.feed.windowUsers(state.issue.id, entry.committed - ms, entry.id);
      }
      state.users.set(ms, { index, users });
      return users;
    },
  };
}
