import Link from "next/link";
import type { ReactNode } from "react";
import type { Project } from "@/src/model";
import type { Workspace } from "@/src/services/ui/workspace";
import { Dropdown } from "./dropdown";
import { NAV_SECTIONS, type NavSection } from "./nav-sections";
import { hrefWith } from "./search-params";
import { readThemeChoice } from "./theme";
import { ThemeToggle } from "./theme-toggle";

export type { NavSection } from "./nav-sections";

export const issuesHref = (organizationSlug: string, project?: Project | null) =>
  `/organizations/${organizationSlug}/issues${project ? `?project=${project.id}` : ""}`;

export const keysHref = (organizationSlug: string, project: Project) =>
  `/settings/${organizationSlug}/projects/${project.slug}/keys`;

export const sourceMapsHref = (organizationSlug: string, project: Project) =>
  `/settings/${organizationSlug}/projects/${project.slug}/source-maps`;

export const filtersHref = (organizationSlug: string, project: Project) =>
  `/settings/${organizationSlug}/projects/${project.slug}/filters`;

// Quotas (issue 33 item 4).
export const quotasHref = (organizationSlug: string, project: Project) =>
  `/settings/${organizationSlug}/projects/${project.slug}/quotas`;

export const releasesHref = (organizationSlug: string, project?: Project | null) =>
  `/organizations/${organizationSlug}/releases${project ? `?project=${project.id}` : ""}`;

/** The stats page with these search parameters (project, category, time range); empty ones are left out. */
export const statsHref = (organizationSlug: string, params: Record<string, string | undefined> = {}) =>
  hrefWith(`/organizations/${organizationSlug}/stats`, params);

/** A release's page; the version is a path segment, so "/"-free but "@", "+" and spaces are escaped. */
export const releaseHref = (organizationSlug: string, version: string, project?: Project | null) =>
  `/organizations/${organizationSlug}/releases/${encodeURIComponent(version)}${project ? `?project=${project.id}` : ""}`;

/**
 * The frame of every page: a header (organisation, project switcher, theme toggle, account) and the
 * main navigation as a sidebar (a scrolling row on narrow screens), drawn from NAV_SECTIONS.
 * `projectHref` says where switching project leads from this page (same page, other project).
 */
export async function AppShell({
  workspace,
  active,
  projectHref,
  children,
}: {
  workspace: Workspace;
  active: NavSection;
  projectHref: (project: Project) => string;
  children: ReactNode;
}) {
  const { organization, projects, project, access } = workspace;
  const user = access.principal.user;
  const theme = await readThemeChoice();
  return (
    <>
      <a
        href="#main"
        className="sr-only rounded-md bg-accent px-3 py-2 text-accent-fg focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-20 border-b border-line bg-surface/95 backdrop-blur">
        <div className="flex h-12 items-center gap-x-2 px-3 sm:px-4">
          <Link href="/" className="flex items-center gap-2 rounded-md px-1 py-1 font-semibold" aria-label="Periscope home">
            <Logo />
            <span className="hidden sm:inline">Periscope</span>
          </Link>
          <span className="text-line-strong" aria-hidden>
            /
          </span>
          <span className="max-w-[7rem] truncate font-medium sm:max-w-none" title={organization.name} data-testid="org-name">
            {organization.name}
          </span>
          {project ? (
            <>
              <span className="text-line-strong" aria-hidden>
                /
              </span>
              <Dropdown
                label={`Project: ${project.name}. Switch project`}
                summary={<span className="max-w-[8rem] truncate sm:max-w-[16rem]">{project.name}</span>}
              >
                <p className="px-2 pt-1.5 pb-1 text-[11px] font-semibold tracking-wide text-subtle uppercase">Projects</p>
                <ul>
                  {projects.map((candidate) => (
                    <li key={candidate.id}>
                      <Link
                        href={projectHref(candidate)}
                        aria-current={candidate.id === project.id ? "true" : undefined}
                        className="flex items-center justify-between gap-4 rounded-md px-2 py-1.5 hover:bg-surface-2 aria-[current]:bg-accent-soft aria-[current]:text-accent"
                      >
                        <span className="truncate">{candidate.name}</span>
                        <span className="font-mono text-xs text-subtle">{candidate.slug}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
                <div className="mt-1 border-t border-line pt-1">
                  <Link
                    href={`/organizations/${organization.slug}/projects#create`}
                    className="block rounded-md px-2 py-1.5 text-accent hover:bg-surface-2"
                  >
                    + Create project
                  </Link>
                </div>
              </Dropdown>
            </>
          ) : null}
          <div className="ml-auto flex items-center gap-1">
            <ThemeToggle initial={theme} />
            <Dropdown
              label={`Signed in as ${user.email}. Account menu`}
              align="right"
              summary={
                <span className="flex size-7 items-center justify-center rounded-full bg-accent-soft text-xs font-semibold text-accent uppercase" data-testid="user-menu">
                  {(user.name || user.email).slice(0, 1)}
                </span>
              }
            >
              <div className="px-2 pt-1.5 pb-2">
                <p className="truncate font-medium" data-testid="user-email">
                  {user.email}
                </p>
                <p className="text-xs text-subtle">
                  {access.role} of {organization.name}
                </p>
              </div>
              <div className="border-t border-line pt-1">
                <Link href="/settings/account" className="block rounded-md px-2 py-1.5 hover:bg-surface-2">
                  Account settings
                </Link>
                <form method="post" action="/auth/logout">
                  <button type="submit" className="block w-full rounded-md px-2 py-1.5 text-left hover:bg-surface-2">
                    Sign out
                  </button>
                </form>
              </div>
            </Dropdown>
          </div>
        </div>
      </header>
      <div className="md:flex">
        <nav
          aria-label="Main"
          data-testid="sidebar"
          className="sticky top-12 z-10 flex gap-1 overflow-x-auto border-b border-line bg-surface/95 px-3 py-1.5 backdrop-blur md:h-[calc(100dvh-3rem)] md:w-52 md:self-start md:shrink-0 md:flex-col md:overflow-y-auto md:border-r md:border-b-0 md:bg-surface md:px-2 md:py-4"
        >
          {NAV_SECTIONS.map((section) => (
            <Link
              key={section.id}
              href={section.href(organization, project)}
              aria-current={section.id === active ? "page" : undefined}
              className="flex items-center gap-2.5 rounded-md px-2.5 py-1.5 font-medium whitespace-nowrap text-muted hover:bg-surface-2 hover:text-fg aria-[current=page]:bg-accent-soft aria-[current=page]:text-accent"
            >
              <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden className="shrink-0">
                {section.icon}
              </svg>
              {section.label}
            </Link>
          ))}
        </nav>
        <main id="main" className="min-w-0 flex-1 px-3 py-5 sm:px-4 sm:py-6">
          <div className="mx-auto max-w-7xl">{children}</div>
        </main>
      </div>
    </>
  );
}

function Logo() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden className="text-accent">
      <circle cx="12" cy="12" r="10" fill="currentColor" opacity="0.15" />
      <circle cx="12" cy="12" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 2v5M12 17v5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      <circle cx="12" cy="12" r="2" fill="currentColor" />
    </svg>
  );
}
