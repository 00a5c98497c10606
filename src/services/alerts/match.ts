/**
 * Whether a rule fires for one feed entry (one issue's change in one committed batch). Pure: the
 * evaluator (evaluator.ts) reads what the conditions need first and passes it in as `facts`.
 */
import {
  EVENT_ATTRIBUTE_FILTER, EVENT_FREQUENCY, FIRST_SEEN, FIRST_SEEN_IN_LATEST_RELEASE, FREQUENCY_INTERVALS, LEVEL_FILTER, REAPPEARED,
  REGRESSION, TAGGED_EVENT_FILTER, UNIQUE_USER_FREQUENCY,
  type AlertCondition, type AlertFilter, type AlertRule, type Issue, type IssueFeedEntry, type StringMatch,
} from "../../model";

const LEVELS = ["debug", "info", "warning", "error", "fatal"];

export interface MatchFacts {
  issue: Issue;
  /** The project's latest release (newest by creation), or null. */
  latestRelease(): Promise<string | null>;
  /** Events of the issue in a window ending at this entry, by window length (ms). */
  windowCount(ms: number): Promise<number>;
  /** Distinct users of the issue in that window. */
  windowUsers(ms: number): Promise<Set<string>>;
}

/** Why a condition held, in words for the message; null when it did not. */
async function conditionHolds(condition: AlertCondition, entry: IssueFeedEntry, facts: MatchFacts): Promise<string | null> {
  switch (condition.id) {
    case FIRST_SEEN:
      return entry.prevStatus === null ? "New issue" : null;
    case REGRESSION:
      // Resolved before the batch and open now: an event from an older release than the one that
      // resolved it leaves the issue resolved (issue-reopen.ts), and that is no regression.
      return entry.prevStatus === "resolved" && facts.issue.status === "unresolved" ? "Regression" : null;
    case REAPPEARED:
      // Resolved and ignored issues reopen at commit when their statusDetails say so (issue-reopen.ts).
      return (entry.prevStatus === "resolved" || entry.prevStatus === "ignored") && facts.issue.status === "unresolved" ? "Issue came back" : null;
    case FIRST_SEEN_IN_LATEST_RELEASE: {
      if (entry.prevStatus !== null || facts.issue.firstRelease === null) return null;
      const latest = await facts.latestRelease();
      return facts.issue.firstRelease === latest ? `New issue in the latest release ${latest}` : null;
    }
    // An issue seen N times or fewer in all can have no window above N: no query for most issues.
    case EVENT_FREQUENCY: {
      if (facts.issue.count <= condition.value) return null;
      const count = await facts.windowCount(FREQUENCY_INTERVALS[condition.interval]);
      return count > condition.value ? `Seen more than ${condition.value} times in ${condition.interval}` : null;
    }
    case UNIQUE_USER_FREQUENCY: {
      if (facts.issue.userCount <= condition.value) return null;
      const users = await facts.windowUsers(FREQUENCY_INTERVALS[condition.interval]);
      return users.size > condition.value ? `Seen by more than ${condition.value} users in ${condition.interval}` : null;
    }
  }
}

function matches(actual: string | null, match: StringMatch, expected: string): boolean {
  const a = (actual ?? "").toLowerCase();
  const e = expected.toLowerCase();
  switch (match) {
    case "eq":
      return a === e;
    case "ne":
      return a !== e;
    case "co":
      return a.includes(e);
    case "nc":
      return !a.includes(e);
    case "sw":
      return a.startsWith(e);
    case "ew":
      return a.endsWith(e);
  }
}

function filterHolds(filter: AlertFilter, entry: IssueFeedEntry, issue: Issue): boolean {
  switch (filter.id) {
    case LEVEL_FILTER: {
      const actual = LEVELS.indexOf(entry.level);
      const wanted = LEVELS.indexOf(filter.level);
      return filter.match === "eq" ? actual === wanted : filter.match === "gte" ? actual >= wanted : actual >= 0 && actual <= wanted;
    }
    case TAGGED_EVENT_FILTER: {
      const values = entry.tags.filter(([key]) => key === filter.key).map(([, value]) => value);
      if (filter.match === "is") return values.length > 0;
      if (filter.match === "ns") return values.length === 0;
      const match = filter.match;
      // Negative matches hold when no event of the batch has the value; positive ones when any has.
      if (match === "ne" || match === "nc") return values.every((value) => matches(value, match, filter.value ?? ""));
      return values.some((value) => matches(value, match, filter.value ?? ""));
    }
    case EVENT_ATTRIBUTE_FILTER: {
      const actual = filter.attribute === "message" ? issue.title : filter.attribute === "culprit" ? issue.culprit : entry.release;
      return matches(actual, filter.match, filter.value);
    }
  }
}

/** A condition that held, and why in words. */
export interface HeldCondition {
  id: string;
  reason: string;
}

/**
 * The rule's conditions that hold for this entry; empty when the rule does not fire (filters,
 * environment, "all"). Conditions `resting` says are within their action interval are not
 * evaluated (with "all", the rule then rests as a whole: it fired for all of them together).
 */
export async function heldConditions(rule: AlertRule, entry: IssueFeedEntry, facts: MatchFacts, resting: (conditionId: string) => boolean): Promise<HeldCondition[]> {
  const awake = rule.conditions.filter((condition) => !resting(condition.id));
  if (awake.length === 0 || (rule.actionMatch === "all" && awake.length < rule.conditions.length)) return [];
  if (rule.environment !== null && !entry.tags.some(([key, value]) => key === "environment" && value === rule.environment)) return [];
  if (rule.filters.length > 0) {
    const held = rule.filters.map((filter) => filterHolds(filter, entry, facts.issue));
    if (rule.filterMatch === "all" ? held.includes(false) : !held.includes(true)) return [];
  }
  const held: HeldCondition[] = [];
  for (const condition of awake) {
    const reason = await conditionHolds(condition, entry, facts);
    if (reason !== null) held.push({ id: condition.id, reason });
    else if (rule.actionMatch === "all") return [];
  }
  return held;
}
