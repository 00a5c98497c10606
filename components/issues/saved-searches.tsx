import Link from "next/link";
import type { ActionState } from "@/app/_lib/action-state";
import type { SavedSearch } from "@/src/model";
import { ActionForm } from "../action-form";
import { hrefWith } from "../search-params";
import { SubmitButton } from "../submit-button";
import { buttonClass, inputClass } from "../ui";

/** Saved searches (the person's and the shared ones) as links, and a form saving the current one. */
export function SavedSearches({
  base,
  projectParam,
  searches,
  userId,
  query,
  sort,
  save,
  remove,
}: {
  base: string;
  projectParam: string;
  searches: SavedSearch[];
  userId: string;
  query: string;
  sort: string;
  save: (state: ActionState, form: FormData) => Promise<ActionState>;
  remove: (id: string, state: ActionState) => Promise<ActionState>;
}) {
  return (
    <section aria-label="Saved searches" className="flex flex-wrap items-center gap-2 text-sm" data-testid="saved-searches">
      <span className="text-muted">Saved:</span>
      {searches.length === 0 ? <span className="text-subtle">none yet</span> : null}
      {searches.map((search) => (
        <span key={search.id} className="inline-flex items-center gap-1 rounded-full border border-line px-2 py-0.5">
          <Link href={hrefWith(base, { project: projectParam, query: search.query, sort: search.sort, status: "all" })} className="hover:underline">
            {search.name}
          </Link>
          {search.visibility === "organization" ? <span className="text-xs text-subtle">shared</span> : null}
          {search.ownerId === userId ? (
            <ActionForm action={remove.bind(null, search.id)} className="inline">
              <SubmitButton className="text-xs text-subtle hover:text-fg" title={`Delete ${search.name}`}>
                ×
              </SubmitButton>
            </ActionForm>
          ) : null}
        </span>
      ))}
      <details className="relative">
        <summary className="cursor-pointer text-accent">Save this search</summary>
        <ActionForm action={save} className="absolute z-20 mt-1 w-72 space-y-2 rounded-md border border-line bg-surface p-3 shadow-lg" testId="save-search-form">
          <input type="hidden" name="query" value={query} />
          <input type="hidden" name="sort" value={sort} />
          <label className="block text-sm">
            Name
            <input name="name" required maxLength={128} className={inputClass} />
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="shared" /> Share with the organization
          </label>
          <SubmitButton className={buttonClass.primary}>Save</SubmitButton>
        </ActionForm>
      </details>
    </section>
  );
}
