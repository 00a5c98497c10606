/**
 * What one committed batch changes in the session counters, summed before anything is written —
 * the sessions counterpart of issue-deltas.ts. Engine-independent: an engine loads each touched
 * session's stored state once (`load`), and writes the final states and the summed deltas.
 *
 * A single session moves between healths as its updates arrive (ok → errored → crashed), so its
 * previous contribution is taken back and the new one added: a batch with the `init` update and
 * the `exited` update of one session adds exactly one session. Aggregates (`sessions` items) only add.
 * Counting rules: docs/protocol.md §8.4 (Relay's `SessionLike`).
 */
import { hourOf } from "./issue-deltas";
import { SESSION_HEALTH, type SessionAggregate, type SessionHealth, type SessionUpdate } from "../model";

/** Sentry's session.status of one session: the terminal status when it is one, else errored if errors were seen. */
export function sessionHealth(status: string, errors: number): SessionHealth {
  if (status === "crashed" || status === "abnormal" || status === "unhandled") return status;
  if (errors > 0 || (status !== "ok" && status !== "exited")) return "errored";
  return "healthy";
}

export const severityOf = (health: SessionHealth): number => SESSION_HEALTH.indexOf(health);

const TERMINAL_BAD = new Set(["crashed", "abnormal", "unhandled"]);

/**
 * The state after an update, whatever order the updates of one session arrive in (retries,
 * several processes): the fields of whichever has the higher `seq` (the update on a tie, as it
 * arrived later), except what can only grow — `init` stays true once any update carried it (the
 * first update may arrive after a later one), `errors` is the highest count seen, and a crashed,
 * abnormal or unhandled end is never taken back by an update ordered after it.
 */
export function mergeSessionUpdate(current: SessionUpdate | null, update: SessionUpdate): SessionUpdate {
  if (!current) return update;
  const latest = update.seq >= current.seq ? update : current;
  const older = latest === update ? current : update;
  const olderHealth = sessionHealth(older.status, 0);
  const keepOlderEnd = TERMINAL_BAD.has(older.status) && severityOf(olderHealth) > severityOf(sessionHealth(latest.status, 0));
  return {
    ...latest,
    init: current.init || update.init,
    errors: Math.max(current.errors, update.errors),
    status: keepOlderEnd ? older.status : latest.status,
    duration: latest.duration ?? older.duration,
    did: latest.did ?? older.did,
  };
}

export interface SessionCountDelta {
  projectId: number;
  hour: number;
  release: string;
  /** "" when the SDK sent none. */
  environment: string;
  health: SessionHealth;
  quantity: number;
}

export interface SessionUserSeverity {
  projectId: number;
  hour: number;
  release: string;
  environment: string;
  did: string;
  severity: number;
}

export interface SessionStateChange {
  projectId: number;
  state: SessionUpdate;
}

export class SessionDeltas {
  /** project\0sid → state before the batch (null: new) and after. */
  private readonly states = new Map<string, { projectId: number; before: SessionUpdate | null; after: SessionUpdate }>();
  private readonly counts = new Map<string, SessionCountDelta>();
  private readonly users = new Map<string, SessionUserSeverity>();

  constructor(private readonly load: (projectId: number, sid: string) => SessionUpdate | null) {}

  addUpdate(projectId: number, update: SessionUpdate): void {
    const id = `${projectId}\u0000${update.sid}`;
    const entry = this.states.get(id);
    if (entry) {
      entry.after = mergeSessionUpdate(entry.after, update);
      return;
    }
    const before = this.load(projectId, update.sid);
    this.states.set(id, { projectId, before, after: mergeSessionUpdate(before, update) });
  }

  addAggregate(projectId: number, aggregate: SessionAggregate): void {
    const hour = hourOf(aggregate.started);
    const environment = aggregate.environment ?? "";
    const byHealth: [SessionHealth, number][] = [
      ["healthy", aggregate.exited],
      ["errored", aggregate.errored],
      ["unhandled", aggregate.unhandled],
      ["abnormal", aggregate.abnormal],
      ["crashed", aggregate.crashed],
    ];
    let worst: SessionHealth | null = null;
    for (const [health, quantity] of byHealth) {
      if (quantity <= 0) continue;
      this.count(projectId, hour, aggregate.release, environment, health, quantity);
      worst = health;
    }
    if (worst !== null && aggregate.did !== null) this.user(projectId, hour, aggregate.release, environment, aggregate.did, worst);
  }

  /**
   * What to write: the final state of every touched session, the net counter changes (zero changes
   * left out) after taking back each session's previous contribution, and user severities.
   */
  finish(): { states: SessionStateChange[]; counts: SessionCountDelta[]; users: SessionUserSeverity[] } {
    const states: SessionStateChange[] = [];
    for (const { projectId, before, after } of this.states.values()) {
      states.push({ projectId, state: after });
      if (before?.init) this.countSession(projectId, before, -1);
      if (!after.init) continue;
      this.countSession(projectId, after, 1);
      if (after.did !== null) {
        const health = sessionHealth(after.status, after.errors);
        this.user(projectId, hourOf(after.started), after.release, after.environment ?? "", after.did, health);
      }
    }
    return {
      states,
      counts: [...this.counts.values()].filter((delta) => delta.quantity !== 0),
      users: [...this.users.values()],
    };
  }

  private countSession(projectId: number, state: SessionUpdate, sign: 1 | -1): void {
    const health = sessionHealth(state.status, state.errors);
    this.count(projectId, hourOf(state.started), state.release, state.environment ?? "", health, sign);
  }

  private count(projectId: number, hour: number, release: string, environment: string, health: SessionHealth, quantity: number): void {
    const id = [projectId, hour, release, environment, health].join("\u0000");
    const delta = this.counts.get(id);
    if (delta) delta.quantity += quantity;
    else this.counts.set(id, { projectId, hour, release, environment, health, quantity });
  }

  private user(projectId: number, hour: number, release: string, environment: string, did: string, health: SessionHealth): void {
    const id = [projectId, hour, release, environment, did].join("\u0000");
    const severity = severityOf(health);
    const entry = this.users.get(id);
    if (entry) entry.severity = Math.max(entry.severity, severity);
    else this.users.set(id, { projectId, hour, release, environment, did, severity });
  }
}
