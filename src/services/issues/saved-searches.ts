/**
 * Saved issue searches, as Sentry's /organizations/{org}/searches/: anyone may save one for
 * themselves; sharing one with the organisation (and changing or deleting a shared one) needs
 * org:write, as in Sentry. A query is checked by the parser before it is saved.
 */
import { z } from "zod";
import { AppError } from "../../errors";
import { ISSUE_SORTS, type IssueSort, type SavedSearch } from "../../model";
import { MAX_QUERY_CHARS } from "../../search/issue-search-syntax";
import { parseIssueSearch } from "../../search/issue-search-terms";
import type { Storage } from "../../storage/types";
import { requireScope, type Access } from "../accounts/access";

const fields = {
  // Sentry's type 0 is the issue search; the others (events, replays…) are not kept here.
  type: z.literal(0).optional(),
  name: z.string().trim().min(1).max(128),
  query: z.string().max(MAX_QUERY_CHARS),
  sort: z.enum(ISSUE_SORTS as [IssueSort, ...IssueSort[]]).default("date"),
  visibility: z.enum(["owner", "organization"]).default("owner"),
};
export const newSavedSearchInput = z.object(fields);
export const savedSearchChanges = z.object({
  name: fields.name.optional(),
  query: fields.query.optional(),
  sort: z.enum(ISSUE_SORTS as [IssueSort, ...IssueSort[]]).optional(),
  visibility: z.enum(["owner", "organization"]).optional(),
});

export async function listSavedSearches(storage: Storage, access: Access): Promise<SavedSearch[]> {
  return storage.savedSearches.listVisible(access.organization.id, access.principal.user.id);
}

export async function createSavedSearch(storage: Storage, access: Access, input: z.output<typeof newSavedSearchInput>): Promise<SavedSearch> {
  if (input.visibility === "organization") requireScope(access, "org:write");
  parseIssueSearch(input.query, Date.now());
  return storage.savedSearches.create({
    organizationId: access.organization.id,
    ownerId: access.principal.user.id,
    visibility: input.visibility,
    name: input.name,
    query: input.query,
    sort: input.sort,
  });
}

/** Someone else's personal search is "not found" (it is not theirs to see); a shared one needs org:write to change. */
async function requireChangeable(storage: Storage, access: Access, id: string): Promise<SavedSearch> {
  const search = await storage.savedSearches.get(access.organization.id, id);
  const mine = search?.ownerId === access.principal.user.id;
  if (!search || (search.visibility === "owner" && !mine)) throw new AppError("not_found", "saved search not found");
  if (search.visibility === "organization") requireScope(access, "org:write");
  return search;
}

export async function updateSavedSearch(
  storage: Storage,
  access: Access,
  id: string,
  changes: z.output<typeof savedSearchChanges>,
): Promise<SavedSearch> {
  await requireChangeable(storage, access, id);
  if (changes.visibility === "organization") requireScope(access, "org:write");
  if (changes.query !== undefined) parseIssueSearch(changes.query, Date.now());
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const updated = await storage.savedSearches.update(access.organization.id, id, defined);
  if (!updated) throw new AppError("not_found", "saved search not found");
  return updated;
}

export async function deleteSavedSearch(storage: Storage, access: Access, id: string): Promise<void> {
  await requireChangeable(storage, access, id);
  await storage.savedSearches.delete(access.organization.id, id);
}
