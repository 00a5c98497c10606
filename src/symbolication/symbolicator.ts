/**
 * Source-map resolution of an event's JavaScript frames, before it is normalised and grouped (so two
 * builds of the same code, with different minified names and debug ids, group as one issue).
 * `wants` runs synchronously for every event and costs nothing for events without JavaScript frames
 * or of projects without artifacts; `resolve` is the async part: metadata through ArtifactLookup on
 * this thread, parsing and position lookups on the source-map thread (sourcemap.main.ts).
 */
import type { ArtifactLookup } from "../model";
import { isObject, type JsonObject } from "../processing/normalize-values";
import type { SourceMapNote } from "../processing/types";
import { applyResolved, applyUnresolved, type Resolved } from "./apply-frame";
import { framePathOf, hasResolvableFrames, isResolvableFrame, stacktracesOf } from "./js-frames";
import { LocatedCache } from "./located-cache";
import { MapLocator, note, type EventKeys, type LocatedMap } from "./locate";
import { ArtifactPresence } from "./presence";
import type { LookupAnswer, MapContent, MapLookup } from "./sourcemap.protocol";
import type { MapResolver } from "./sourcemap.main";

type Located = Extract<LocatedMap, { ok: true }>;

/**
 * Why the JavaScript frames of an event stay as sent when its project has no upload at all: said
 * once for the event (in its `errors`), without a query or rewriting the frames, so that such
 * events keep the synchronous path and still say why.
 */
const NO_ARTIFACTS: SourceMapNote[] = [
  note("js_no_source", "the project has no uploaded source maps (no artifact bundle or release file), so its JavaScript frames stay as sent", {}),
];

/** A task's `located` until its lookup answered (replaced before anything reads it). */
const PENDING: LocatedMap = { ok: false, note: { type: "js_no_source", reason: "not looked up yet", data: {} } };

interface FrameTask {
  frame: JsonObject;
  /** The frame before it in the same stack (its caller), for the call-site name. */
  caller: FrameTask | null;
  located: LocatedMap;
  locating: Promise<LocatedMap>;
  position: Resolved | null;
  problem: SourceMapNote | null;
}

export class Symbolicator {
  private readonly presence: ArtifactPresence;
  private readonly locator: MapLocator;
  private readonly located = new LocatedCache();
  /** Map loads in progress by sha1, so a burst of events for a new map fetches and parses it once. */
  private readonly loading = new Map<string, Promise<void>>();

  constructor(private readonly artifacts: ArtifactLookup, private readonly maps: MapResolver) {
    this.presence = new ArtifactPresence(
      (projectId) => artifacts.hasArtifacts(projectId),
      (projectId) => this.located.forget(projectId),
    );
    this.locator = new MapLocator(artifacts);
  }

  /** Whether `resolve` may change the event: false for events without JavaScript frames (synchronous, allocation-free). */
  wants(raw: JsonObject, projectId: string, now: number): boolean {
    return this.presence.mayHave(projectId, now) && hasResolvableFrames(raw);
  }

  /**
   * For an event `wants` turned down (or `resolve` answered null): the note saying why its JavaScript
   * frames stay as sent. Browser events only: a Node service usually runs its sources unbundled, and
   * a note on each of its events would be noise.
   */
  notesWithoutArtifacts(raw: JsonObject, projectId: string, now: number): SourceMapNote[] | undefined {
    return raw.platform === "javascript" && !this.presence.mayHave(projectId, now) && hasResolvableFrames(raw) ? NO_ARTIFACTS : undefined;
  }

  /**
   * Rewrites the event's resolvable frames in place (keeping the sent ones in `raw_stacktrace`) and
   * returns the notes for the event's `errors`; null when the project has no artifacts (nothing changed).
   */
  async resolve(raw: JsonObject, projectId: string, now: number): Promise<SourceMapNote[] | null> {
    if (!(await this.presence.has(projectId, now))) return null;
    const keys = keysOf(raw, projectId);
    const byPath = new Map<string, Promise<LocatedMap>>();
    const tasks: FrameTask[] = [];
    const stacks: { stacktrace: JsonObject; frames: JsonObject[]; sent: unknown[] }[] = [];
    for (const stacktrace of stacktracesOf(raw)) {
      const sent = stacktrace.frames as unknown[];
      const frames: JsonObject[] = [];
      let caller: FrameTask | null = null;
      for (const item of sent) {
        if (!isObject(item)) continue;
        const frame: JsonObject = { ...item };
        frames.push(frame);
        if (!isResolvableFrame(frame, raw.platform)) {
          caller = null;
          continue;
        }
        const path = framePathOf(frame)!;
        let located = byPath.get(path);
        if (!located) {
          // Never rejects: a failed lookup (storage unreachable) leaves the frames minified, saying why.
          located = this.located.remember(projectId, locatedKey(path, keys), now, () => this.locator.locate(path, keys)).catch(
            (error: unknown): LocatedMap => ({ ok: false, note: note("js_no_source", `artifact lookup failed: ${(error as Error).message}`, { url: path }) }),
          );
          byPath.set(path, located);
        }
        const task: FrameTask = { frame, caller, located: PENDING, locating: located, position: null, problem: null };
        tasks.push(task);
        caller = task;
      }
      stacks.push({ stacktrace, frames, sent });
    }
    // Each distinct file is located once, all of them concurrently.
    for (const task of tasks) task.located = await task.locating;
    await this.lookUp(tasks);
    const notes = new Map<string, SourceMapNote>();
    for (const task of tasks) {
      if (task.position && task.located.ok) {
        // What the caller's call site calls it, else the declaration it is in, else the minified name stays.
        const callSiteName = task.caller?.position?.name ?? task.position.enclosing;
        const missing = task.position.context ? null : missingSourceNote(task.position, task.located.url);
        applyResolved(task.frame, task.position, task.located, callSiteName, missing);
        if (missing) notes.set(missing.reason, missing);
      } else {
        const reason = task.problem ?? (task.located.ok ? null : task.located.note);
        if (reason) {
          applyUnresolved(task.frame, reason);
          notes.set(reason.reason, reason);
        }
      }
    }
    // The sent frames stay beside the resolved ones, as Sentry keeps `raw_stacktrace`.
    for (const { stacktrace, frames, sent } of stacks) {
      if (!frames.some((frame) => isObject(frame.data) && frame.data.symbolicated === true)) {
        stacktrace.frames = frames;
        continue;
      }
      stacktrace.frames = frames;
      const owner = ownerOf(raw, stacktrace);
      if (owner) owner.raw_stacktrace = { frames: sent };
    }
    return [...notes.values()];
  }

  /** Positions of every located frame, looked up map by map on the source-map thread. */
  private async lookUp(tasks: FrameTask[]): Promise<void> {
    const bySha = new Map<string, { located: Located; tasks: FrameTask[] }>();
    for (const task of tasks) {
      if (!task.located.ok) continue;
      const group = bySha.get(task.located.sha1) ?? { located: task.located, tasks: [] };
      group.tasks.push(task);
      bySha.set(task.located.sha1, group);
    }
    const groups = [...bySha.values()];
    if (groups.length === 0) return;
    const lookups = groups.map((group): MapLookup => ({ sha1: group.located.sha1, positions: group.tasks.map(positionOf) }));
    let answers: LookupAnswer[];
    try {
      answers = await this.maps.resolve(lookups, []);
      const missing = answers.flatMap((answer, index) => (answer.kind === "missing" ? [index] : []));
      if (missing.length > 0) {
        await Promise.all(missing.map((index) => this.load(groups[index]!.located)));
        const again = await this.maps.resolve(missing.map((index) => lookups[index]!), []);
        // Still missing: larger than the whole cache, or pushed out meanwhile: sent along this once.
        const stillMissing = missing.filter((_, at) => again[at]!.kind === "missing");
        const contents = await this.contentsOf(stillMissing.map((index) => groups[index]!.located));
        const last = stillMissing.length > 0 ? await this.maps.resolve(stillMissing.map((index) => lookups[index]!), contents) : [];
        missing.forEach((index, at) => (answers[index] = again[at]!));
        stillMissing.forEach((index, at) => (answers[index] = last[at]!));
      }
    } catch (error) {
      answers = groups.map(() => ({ kind: "invalid", reason: `the source-map thread failed (${(error as Error).message})` }));
    }
    groups.forEach((group, index) => {
      const answer = answers[index]!;
      group.tasks.forEach((task, at) => {
        const frame = task.frame;
        if (answer.kind === "resolved") {
          const position = answer.positions[at]!;
          if (position.ok) task.position = position;
          else {
            task.problem = note(
              "js_invalid_sourcemap_location",
              `map found but line ${String(frame.lineno)}, column ${String(frame.colno ?? 1)} is out of range: ${group.located.url} maps ${position.mappedLines} lines and nothing at that position`,
              { url: framePathOf(frame) ?? null, sourcemap: group.located.url, row: Number(frame.lineno), column: Number(frame.colno ?? 1) },
            );
          }
        } else if (answer.kind === "missing") {
          task.problem = note("js_no_source", `the bytes of ${group.located.url} (sha1 ${group.located.sha1}) are gone from storage`, {
            url: framePathOf(frame) ?? null,
            sourcemap: group.located.url,
          });
        } else {
          task.problem = note("js_invalid_source", `${group.located.url} is not a valid source map: ${answer.reason}`, {
            url: framePathOf(frame) ?? null,
            sourcemap: group.located.url,
          });
        }
      });
    });
  }

  /** Fetches a map's bytes and has the thread parse and keep them; concurrent callers share one load. */
  private load(located: Located): Promise<void> {
    let loading = this.loading.get(located.sha1);
    if (!loading) {
      loading = this.contentsOf([located])
        .then(async (contents) => {
          if (contents.length > 0) await this.maps.resolve([], contents);
        })
        .finally(() => this.loading.delete(located.sha1));
      this.loading.set(located.sha1, loading);
    }
    return loading;
  }

  private async contentsOf(located: Located[]): Promise<MapContent[]> {
    const contents: MapContent[] = [];
    for (const map of located) {
      const bytes = map.inline ?? (await this.artifacts.content(map.sha1));
      // A copy of its own, transferred to the thread (the lookup's Buffer may share a pooled ArrayBuffer).
      if (bytes) contents.push({ sha1: map.sha1, bytes: new Uint8Array(bytes) });
    }
    return contents;
  }

  close(): void {
    this.presence.close();
  }
}

function positionOf(task: FrameTask): { line: number; column: number } {
  const colno = task.frame.colno;
  return { line: Number(task.frame.lineno), column: typeof colno === "number" && colno >= 1 ? colno : 1 };
}

function missingSourceNote(position: Resolved, mapUrl: string): SourceMapNote {
  return note("js_missing_sources_content", `${mapUrl} has no sourcesContent for ${position.source}: no source lines to show`, {
    source: position.source,
    sourcemap: mapUrl,
  });
}

/** What a file's lookup depends on besides the project: its path, its debug id, the release and dist. */
function locatedKey(path: string, keys: EventKeys): string {
  return `${path}\n${keys.debugIds.get(path) ?? ""}\n${keys.release ?? ""}\n${keys.dist ?? ""}`;
}

function keysOf(raw: JsonObject, projectId: string): EventKeys {
  const debugIds = new Map<string, string>();
  const images = isObject(raw.debug_meta) ? raw.debug_meta.images : undefined;
  if (Array.isArray(images)) {
    for (const image of images) {
      if (!isObject(image) || image.type !== "sourcemap") continue;
      if (typeof image.code_file === "string" && typeof image.debug_id === "string") {
        debugIds.set(image.code_file, image.debug_id.trim().toLowerCase());
      }
    }
  }
  return {
    projectId,
    release: typeof raw.release === "string" && raw.release.trim() !== "" ? raw.release.trim() : null,
    dist: typeof raw.dist === "string" && raw.dist.trim() !== "" ? raw.dist.trim() : null,
    debugIds,
  };
}

/** The exception or thread value a stack trace belongs to. */
function ownerOf(raw: JsonObject, stacktrace: JsonObject): JsonObject | undefined {
  for (const key of ["exception", "threads"] as const) {
    const container = raw[key];
    const values = Array.isArray(container) ? container : isObject(container) ? container.values : undefined;
    if (!Array.isArray(values)) continue;
    for (const value of values) if (isObject(value) && value.stacktrace === stacktrace) return value;
  }
  return undefined;
}
