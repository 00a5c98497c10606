/** A saved issue search (Sentry's /organizations/{org}/searches/): one person's, or shared with the organisation. */
import type { IssueSort } from "./issues";

export type SavedSearchVisibility = "owner" | "organization";

export interface SavedSearch {
  id: string;
  organizationId: string;
  ownerId: string;
  visibility: SavedSearchVisibility;
  name: string;
  query: string;
  sort: IssueSort;
  dateCreated: number;
}

export interface NewSavedSearch {
  organizationId: string;
  ownerId: string;
  visibility: SavedSearchVisibility;
  name: string;
  query: string;
  sort: IssueSort;
}
