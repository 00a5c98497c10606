/**
 * The "test a URL" lookup of Settings → Source maps: which uploaded map the resolver would use for a
 * frame at this URL (with this release, dist or debug id), or why none — answered by the resolver's
 * own MapLocator and URL candidates, so the page and real events can never disagree.
 */
import { z } from "zod";
import type { Project } from "../../model";
import type { SourceMapNote } from "../../processing/types";
import type { Storage } from "../../storage/types";
import { MapLocator } from "../../symbolication/locate";
import { urlCandidates } from "../../symbolication/urls";
import { parseInput } from "../parse-input";
import { releaseVersion } from "../releases/input";
import { normalDebugId } from "./bundle-zip";

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

export const urlTestInput = z.object({
  url: z.string().trim().min(1, "url: enter the URL of a minified file, as a stack frame names it").max(2000, "url: must be at most 2000 characters"),
  release: optional(releaseVersion),
  dist: optional(z.string().trim().max(64, "dist: must be at most 64 characters")),
  debugId: optional(
    z
      .string()
      .trim()
      .transform((value, context) => {
        const normal = normalDebugId(value);
        if (normal === null) context.addIssue({ code: "custom", message: "debugId: must be a UUID such as 0f1e2d3c-4b5a-4968-8776-655443322110" });
        return normal ?? "";
      }),
  ),
});
export type UrlTestInput = z.infer<typeof urlTestInput>;

export type UrlTestResult =
  | {
      found: true;
      /** The map the resolver would apply, and how it was found. */
      mapUrl: string;
      resolvedWith: "debug-id" | "release" | "release-old";
      sha1: string;
      /** Bytes of the map; null when its content is gone (the frame would say so). */
      size: number | null;
      inline: boolean;
      tried: string[];
    }
  | { found: false; note: SourceMapNote; tried: string[] };

export function parseUrlTest(raw: Record<string, string | undefined>): UrlTestInput {
  return parseInput(urlTestInput, raw);
}

export async function testSourceMapUrl(storage: Storage, project: Project, input: UrlTestInput): Promise<UrlTestResult> {
  const locator = new MapLocator(storage.artifacts);
  const located = await locator.locate(input.url, {
    projectId: project.id,
    release: input.release ?? null,
    dist: input.dist ?? null,
    debugIds: input.debugId ? new Map([[input.url, input.debugId]]) : new Map(),
  });
  const tried = urlCandidates(input.url);
  if (!located.ok) return { found: false, note: located.note, tried };
  const bytes = located.inline ?? (await storage.artifacts.content(located.sha1));
  return {
    found: true,
    mapUrl: located.url,
    resolvedWith: located.resolvedWith,
    sha1: located.sha1,
    size: bytes?.length ?? null,
    inline: located.inline !== undefined,
    tried,
  };
}
