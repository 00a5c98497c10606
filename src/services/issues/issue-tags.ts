/**
 * An issue's tags as Sentry's issue tag endpoints serve them (issue 35): every key with its top
 * values, one key, and one key's values page by page (offset cursors: a value list is bounded by the
 * issue's tag rows). Callers check first that the person may see the issue.
 */
import { AppError } from "../../errors";
import type { TagDistribution, TagValueCount } from "../../model";
import { decodeCursor, encodeCursor } from "../../storage/cursor";
import type { Storage } from "../../storage/types";

/** Sentry lists 9 top values per key on the issue page and in tags/. */
export const TOP_VALUES = 9;

export async function issueTagKeys(storage: Storage, issueId: string): Promise<TagDistribution[]> {
  return storage.issues.tagDistribution(issueId, TOP_VALUES);
}

export async function issueTagKey(storage: Storage, issueId: string, key: string): Promise<TagDistribution & { uniqueValues: number }> {
  const distribution = (await storage.issues.tagDistribution(issueId, TOP_VALUES)).find((candidate) => candidate.key === key);
  if (!distribution) throw new AppError("not_found", `tag ${key} not found on this issue`);
  const { uniqueValues } = await storage.issues.tagValues(issueId, key, { limit: 0, offset: 0 });
  return { ...distribution, uniqueValues };
}

export async function issueTagValues(
  storage: Storage,
  issueId: string,
  key: string,
  page: { limit: number; cursor: string | null },
): Promise<{ values: TagValueCount[]; nextCursor: string | null }> {
  const offset = page.cursor ? decodeCursor(page.cursor).value : 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new AppError("bad_request", `invalid cursor: ${page.cursor}`);
  const { values, uniqueValues } = await storage.issues.tagValues(issueId, key, { limit: page.limit, offset });
  if (uniqueValues === 0) throw new AppError("not_found", `tag ${key} not found on this issue`);
  const next = offset + values.length;
  return { values, nextCursor: next < uniqueValues ? encodeCursor({ value: next, id: 0 }) : null };
}
