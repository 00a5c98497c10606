"use client";

import { useRouter } from "next/navigation";
import type { FormEvent, ReactNode } from "react";
import { inputClass } from "../ui";

export interface IssueFilterValues {
  project: string;
  query: string;
  status: string;
  level: string;
  release: string;
  environment: string;
  sort: string;
}

export interface IssueFilterOptions {
  releases: string[];
  environments: string[];
  levels: readonly string[];
}

const selectClass =
  "rounded-md border border-line bg-surface py-1.5 pr-7 pl-2 text-sm text-fg shadow-sm hover:border-line-strong focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/30";

/**
 * A plain GET form (works without JavaScript); with JavaScript, a select change applies at once and
 * the URL keeps only the parameters that are set.
 */
export function IssueFilters({ action, values, options }: { action: string; values: IssueFilterValues; options: IssueFilterOptions }) {
  const router = useRouter();

  function navigate(form: HTMLFormElement) {
    const params = new URLSearchParams();
    for (const [key, value] of new FormData(form)) {
      if (typeof value === "string" && value.trim() !== "") params.set(key, value.trim());
    }
    router.push(`${action}?${params.toString()}`);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    navigate(event.currentTarget);
  }

  return (
    <form method="get" action={action} onSubmit={onSubmit} className="flex flex-col gap-2 lg:flex-row lg:items-center" role="search">
      <input type="hidden" name="project" value={values.project} />
      <div className="relative min-w-0 flex-1">
        <label htmlFor="issue-query" className="sr-only">
          Search issues
        </label>
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-subtle">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
        <input
          id="issue-query"
          name="query"
          type="search"
          defaultValue={values.query}
          aria-describedby="issue-query-error"
          placeholder="Search: is:unresolved level:error user.email:… (see docs/search.md)"
          className={`${inputClass} pl-8`}
        />
      </div>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center">
        <Select label="Status" name="status" value={values.status} onPick={navigate}>
          <option value="unresolved">Unresolved</option>
          <option value="resolved">Resolved</option>
          <option value="ignored">Ignored</option>
          <option value="all">All statuses</option>
        </Select>
        <Select label="Level" name="level" value={values.level} onPick={navigate}>
          <Options any="Any level" values={options.levels} />
        </Select>
        <Select label="Release" name="release" value={values.release} onPick={navigate}>
          <Options any="Any release" values={withCurrent(options.releases, values.release)} />
        </Select>
        <Select label="Environment" name="environment" value={values.environment} onPick={navigate}>
          <Options any="Any environment" values={withCurrent(options.environments, values.environment)} />
        </Select>
        <Select label="Sort by" name="sort" value={values.sort} onPick={navigate}>
          <option value="date">Last seen</option>
          <option value="new">First seen</option>
          <option value="freq">Events</option>
          <option value="user">Users</option>
          <option value="priority">Priority</option>
        </Select>
        <button type="submit" className="rounded-md border border-line bg-surface px-3 py-1.5 text-sm font-medium shadow-sm hover:bg-surface-2">
          Apply
        </button>
      </div>
    </form>
  );
}

/** "Any" (no filter) followed by one option per value. */
function Options({ any, values }: { any: string; values: readonly string[] }) {
  return (
    <>
      <option value="">{any}</option>
      {values.map((value) => (
        <option key={value} value={value}>
          {value}
        </option>
      ))}
    </>
  );
}

/** A value from the URL that the facets no longer list stays selectable, so the select shows it. */
function withCurrent(values: string[], current: string): string[] {
  return current && !values.includes(current) ? [current, ...values] : values;
}

function Select({
  label,
  name,
  value,
  onPick,
  children,
}: {
  label: string;
  name: string;
  value: string;
  onPick: (form: HTMLFormElement) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex min-w-0 items-center">
      <span className="sr-only">{label}</span>
      <select
        name={name}
        defaultValue={value}
        className={`${selectClass} w-full sm:w-auto sm:max-w-[13rem]`}
        onChange={(event) => {
          if (event.currentTarget.form) onPick(event.currentTarget.form);
        }}
      >
        {children}
      </select>
    </label>
  );
}
