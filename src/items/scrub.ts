/**
 * Data scrubbing as the item modules apply it (src/processing/scrub, docs/security.md): on the
 * item's parsed JSON, before it is normalised or stored, so neither the stored payload nor any
 * column holds what was filtered.
 */
import { DEFAULT_PRIVACY, effectivePrivacy, type EffectivePrivacy } from "../model";
import { compileScrubber, type MetaTree, type Scrubber } from "../processing/scrub/scrubber";
import type { JsonObject } from "./telemetry-values";
import type { ItemContext } from "./types";

/** What ingest scrubs with when nobody looked the project's settings up (tests, benchmarks): the defaults. */
const DEFAULT_SCRUBBER = compileScrubber(effectivePrivacy(DEFAULT_PRIVACY, DEFAULT_PRIVACY));

export function scrubberOf(context: Pick<ItemContext, "scrubber">): Scrubber | null {
  return context.scrubber === undefined ? DEFAULT_SCRUBBER : context.scrubber;
}

/**
 * Scrubs `raw` (the item's whole JSON, parsed) in place and answers the text to store: the SDK's
 * own when nothing was filtered, else the scrubbed item with its `_meta` remarks.
 */
export function scrubbedText(raw: JsonObject, sdkJson: string, scrubber: Scrubber): string {
  const meta = scrubber.scrub(raw as Parameters<Scrubber["scrub"]>[0]);
  if (meta === null && !Object.hasOwn(raw, "_meta")) return sdkJson;
  setMeta(raw, meta);
  return JSON.stringify(raw);
}

/**
 * The item's `_meta` is ours alone: one an SDK sent is never scrubbed (the walk skips it), so it
 * must not be stored either, or it could carry anything past the scrubber.
 */
function setMeta(raw: JsonObject, meta: ReturnType<Scrubber["scrub"]>): void {
  if (meta === null) delete raw._meta;
  else raw._meta = meta;
}

/** Scrubs in place, keeping the `_meta` remarks on the item (transactions store their normalised form). */
export function scrubInPlace(raw: JsonObject, scrubber: Scrubber | null): void {
  if (!scrubber) return;
  setMeta(raw, scrubber.scrub(raw as Parameters<Scrubber["scrub"]>[0]));
}

/**
 * Scrubs an event again after source maps resolved its frames: the source context and names they
 * added come from uploaded files the first pass never saw (Sentry likewise scrubs a second time after
 * stacktrace processing). The first pass's remarks win where both have one: its values were the
 * SDK's, and a value it already filtered would otherwise be remarked again with the length of "[Filtered]".
 */
export function rescrubInPlace(raw: JsonObject, scrubber: Scrubber): void {
  const earlier = isMetaTree(raw._meta) ? raw._meta : null;
  const added = scrubber.scrub(raw as Parameters<Scrubber["scrub"]>[0]);
  setMeta(raw, earlier && added ? mergedMeta(earlier, added) : (earlier ?? added));
}

const isMetaTree = (value: unknown): value is MetaTree => typeof value === "object" && value !== null && !Array.isArray(value);

function mergedMeta(first: MetaTree, second: MetaTree): MetaTree {
  const out: MetaTree = { ...first };
  for (const [key, value] of Object.entries(second)) {
    const mine = out[key];
    if (mine === undefined) out[key] = value;
    else if (key !== "" && isMetaTree(mine) && isMetaTree(value)) out[key] = mergedMeta(mine as MetaTree, value as MetaTree);
  }
  return out;
}

/**
 * Span containers are read where their spans are written (the SQLite commit thread): they carry
 * the settings, and each thread compiles them once.
 */
const compiled = new Map<string, Scrubber | null>();

export function scrubberForSettings(privacy: EffectivePrivacy | null | undefined): Scrubber | null {
  if (privacy === undefined) return DEFAULT_SCRUBBER;
  if (privacy === null) return null;
  const key = JSON.stringify(privacy);
  let scrubber = compiled.get(key);
  if (scrubber === undefined) {
    try {
      scrubber = compileScrubber(privacy);
    } catch {
      // Settings are validated before they are stored; should one still fail, the defaults apply.
      scrubber = DEFAULT_SCRUBBER;
    }
    if (compiled.size >= 100) compiled.clear();
    compiled.set(key, scrubber);
  }
  return scrubber;
}
