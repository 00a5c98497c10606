/**
 * An issue's tags as Sentry's issue tag endpoints serve them (issue 35): every key with its top
 * values, one key, and one key's values page by page (offset cursors: a value list is bounded by the
 * issue's tag rows). Callers check first that the person may see the issue.
 */
import { AppError } from "../../errors";
import type { TagDistribution, TagValueCount } from "../../model";
import { decodeCursor, encodeCursor } from "../../storage/cursor";
import type { Storage } from "../../storage/types";
import { USER_FIELD_TAG_KEYS } from "../../processing/normalize-tags";

/** Sentry lists 9 top values per key on the issue page and in tags/. */
export const TOP_VALUES = 9;

/**
 * The issue's tag distribution as Sentry shows it: without the per-field user keys (user.email, …)
 * kept only for search — Sentry's tag list shows the `user` tag alone.
 */
export async function shownTagDistribution(storage: Storage, issueId: string, limitPerKey: number): Promise<TagDistribution[]> {
  return (await storage.issues.tagDistribution(issueId, limitPerKey)).filter((tag) => !USER_FIELD_TAG_KEYS.has(tag.key));
}

export async function issueTagKeys(storage: Storage, issueId: string): Promise<TagDistribution[]> {
  return shownTagDistribution(storage, issueId, TOP_VALUES);
}

export async function issueTagKey(storage: Storage, issueId: string, key: string): Promise<TagDistribution & { uniqueValues: number }> {
  const distribution = (await shownTagDistribution(storage, issueId, TOP_VALUES)).find((candidate) => candidate.key === key);
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
  if (USER_FIELD_TAG_KEYS.has(key)) throw new AppError("not_found", `tag ${key} not found on this issue`);
  const offset = page.cursor ? decodeCursor(page.cursor).value : 0;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new AppError("bad_request", `invalid cursor: ${page.cursor}`);
  const { values, uniqueValues } = await storage.issues.tagValues(issueId, key, { limit: page.limit, offset });
  if (uniqueValues === 0) throw new AppError("not_found", `tag ${key} not found on this issue`);
  const next = offset + values.length;
  return { values, nextCursor: next < uniqueValues ? encodeCursor({ value: next, id: 0 }) : null };
}
