import type { ReactNode } from "react";
import { buttonClass, inputClass } from "../ui";
import { AutoSubmitSelect } from "./auto-submit-select";

export interface FilterSelect {
  /** The search parameter it sets. */
  name: string;
  label: string;
  /** The selected option's value ("" for the option that leaves the parameter out). */
  value: string;
  options: readonly { value: string; label: string }[];
}

/** A free-text search field of a filter bar (the log explorer's query); Enter applies it. */
export interface FilterSearch {
  name: string;
  label: string;
  value: string;
  placeholder?: string;
}

/**
 * The one filter bar of the UI: selects (project, category, …) in a GET form, so the filters live
 * in the URL; with JavaScript a change applies at once, without it an Apply button does. `keep`
 * carries the page's other parameters (the time range); `children` is the time-range picker's slot
 * (outside the form: the picker has its own).
 */
export function FilterBar({
  path, selects, keep, search, children,
}: { path: string; selects: readonly FilterSelect[]; keep: Record<string, string | undefined>; search?: FilterSearch; children?: ReactNode }) {
  const names = new Set([...selects.map((select) => select.name), ...(search ? [search.name] : [])]);
  return (
    <div className="flex flex-wrap items-end justify-between gap-3" data-testid="filter-bar">
      <form action={path} method="get" role="search" aria-label="Filters" className="flex flex-wrap items-end gap-3">
        {Object.entries(keep).map(([name, value]) => (value && !names.has(name) ? <input key={name} type="hidden" name={name} value={value} /> : null))}
        {selects.map((select) => (
          <label key={select.name} className="flex flex-col gap-1 text-xs font-medium text-muted">
            {select.label}
            <AutoSubmitSelect name={select.name} defaultValue={select.value} options={select.options} />
          </label>
        ))}
        {search ? (
          <label className="flex min-w-[16rem] flex-1 flex-col gap-1 text-xs font-medium text-muted">
            {search.label}
            <input type="search" name={search.name} defaultValue={search.value} placeholder={search.placeholder} className={`${inputClass} py-1.5`} />
          </label>
        ) : null}
        <noscript>
          <button type="submit" className={buttonClass.secondary}>
            Apply
          </button>
        </noscript>
      </form>
      {children}
    </div>
  );
}

/** The project select of a filter bar: every visible project, or all of them (no parameter). */
export function projectSelect(projects: readonly { id: string; name: string }[], selected: string | undefined): FilterSelect {
  return {
    name: "project",
    label: "Project",
    value: selected ?? "",
    options: [{ value: "", label: "All projects" }, ...projects.map((project) => ({ value: project.id, label: project.name }))],
  };
}
