import Link from "next/link";
import type { ReactNode } from "react";
import type { Project } from "@/src/model";
import type { Workspace } from "@/src/services/ui/workspace";
import { Dropdown } from "./dropdown";
import { TabLinks, type TabLink } from "./tab-links";
import { readThemeChoice } from "./theme";
import { ThemeToggle } from "./theme-toggle";

export type NavSection = "issues" | "projects" | "settings";

export const issuesHref = (organizationSlug: string, project?: Project | null) =>
  `/organizations/${organizationSlug}/issues${project ? `?project=${project.id}` : ""}`;

export const keysHref = (organizationSlug: string, project: Project) =>
  `/settings/${organizationSlug}/projects/${project.slug}/keys`;

/**
 * The frame of every page: organisation, project switcher, navigation and theme toggle.
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
  const nav: TabLink<NavSection>[] = [
    { id: "issues", label: "Issues", href: issuesHref(organization.slug, project) },
    { id: "projects", label: "Projects", href: `/organizations/${organization.slug}/projects` },
    { id: "settings", label: "Settings", href: `/settings/${organization.slug}/members` },
  ];
  return (
    <>
      <a
        href="#main"
        className="sr-only rounded-md bg-accent px-3 py-2 text-accent-fg focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-20 border-b border-line bg-surface/95 backdrop-blur">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-2 gap-y-1 px-3 py-1.5 sm:px-4">
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
          <div className="ml-auto flex items-center gap-1 sm:order-last">
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
          <TabLinks
            label="Main"
            items={nav}
            active={active}
            className="-mx-1 flex w-full gap-1 overflow-x-auto sm:mx-0 sm:ml-4 sm:w-auto"
            linkClassName="rounded-md px-2.5 py-1.5 font-medium text-muted hover:bg-surface-2 hover:text-fg aria-[current=page]:bg-accent-soft aria-[current=page]:text-accent"
          />
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-3 py-5 sm:px-4 sm:py-6">
        {children}
      </main>
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
