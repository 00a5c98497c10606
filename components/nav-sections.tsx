import type { ReactNode } from "react";
import type { Organization, Project } from "@/src/model";

/**
 * The sections of the main navigation, in order. The sidebar is drawn from this list alone: a new
 * section (performance, logs, crons …) adds one entry here and passes its id as AppShell's `active`.
 */
export interface NavEntry {
  id: string;
  label: string;
  /** Where the section opens; `project` is the one the header has selected (null: none exists). */
  href(organization: Organization, project: Project | null): string;
  icon: ReactNode;
}

const projectQuery = (project: Project | null) => (project ? `?project=${project.id}` : "");

export const NAV_SECTIONS = [
  // Organisation dashboard (issue 37): the landing page after login.
  {
    id: "dashboard",
    label: "Dashboard",
    href: (organization) => `/organizations/${organization.slug}`,
    icon: <path d="M4 13h6V4H4v9Zm0 7h6v-4H4v4Zm10 0h6v-9h-6v9Zm0-16v4h6V4h-6Z" />,
  },
  {
    id: "issues",
    label: "Issues",
    href: (organization, project) => `/organizations/${organization.slug}/issues${projectQuery(project)}`,
    icon: <path d="M12 8v5m0 3h.01M4.5 19h15a1 1 0 0 0 .87-1.5l-7.5-13a1 1 0 0 0-1.74 0l-7.5 13A1 1 0 0 0 4.5 19Z" />,
  },
  {
    id: "releases",
    label: "Releases",
    href: (organization, project) => `/organizations/${organization.slug}/releases${projectQuery(project)}`,
    icon: <path d="M4 7.5 12 3l8 4.5v9L12 21l-8-4.5v-9Zm0 0 8 4.5m0 0 8-4.5M12 12v9" />,
  },
  // Cron monitors and user feedback.
  {
    id: "crons",
    label: "Crons",
    href: (organization, project) => `/organizations/${organization.slug}/crons${projectQuery(project)}`,
    icon: <path d="M12 7v5l3 2m6-2a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z" />,
  },
  {
    id: "feedback",
    label: "Feedback",
    href: (organization, project) => `/organizations/${organization.slug}/feedback${projectQuery(project)}`,
    icon: <path d="M4 5h16v11H9l-5 4V5Zm4 5h8M8 13h5" />,
  },
  {
    id: "stats",
    label: "Stats",
    // The whole organisation: the project filter narrows it on the page.
    href: (organization) => `/organizations/${organization.slug}/stats`,
    icon: <path d="M4 20h16M7 16v-5m5 5V6m5 10v-8" />,
  },
  {
    id: "projects",
    label: "Projects",
    href: (organization) => `/organizations/${organization.slug}/projects`,
    icon: <path d="M4 5h6v6H4V5Zm10 0h6v6h-6V5ZM4 15h6v4H4v-4Zm10 0h6v4h-6v-4Z" />,
  },
  {
    id: "settings",
    label: "Settings",
    href: (organization) => `/settings/${organization.slug}/members`,
    icon: (
      <>
        <circle cx="12" cy="12" r="3" />
        <path d="M12 3v2.5M12 18.5V21M3 12h2.5M18.5 12H21M5.6 5.6l1.8 1.8M16.6 16.6l1.8 1.8M5.6 18.4l1.8-1.8M16.6 7.4l1.8-1.8" />
      </>
    ),
  },
] as const satisfies readonly NavEntry[];

export type NavSection = (typeof NAV_SECTIONS)[number]["id"];
