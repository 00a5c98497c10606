/** Sentry's saved search shape (SavedSearchSerializer). */
import type { SavedSearch } from "../../model";

export function serializeSavedSearch(search: SavedSearch) {
  return {
    id: search.id,
    type: 0,
    name: search.name,
    query: search.query,
    sort: search.sort,
    visibility: search.visibility,
    isGlobal: false,
    isPinned: false,
    dateCreated: new Date(search.dateCreated).toISOString(),
  };
}
