/**
 * App data (organisations, projects, keys, accounts), written once for both engines over Kysely
 * (ADR 0011). Each engine's index.ts builds its dialect (dialect.ts) and takes these repositories;
 * telemetry, ingest and retention stay hand-written per engine.
 */
import type { AccountStore } from "../accounts-types";
import type { OrganizationRepo, ProjectKeyRepo, ProjectRepo } from "../types";
import { appAudit } from "./audit";
import type { AppDialect } from "./dialect";
import { appInvites } from "./invites";
import { appKeys } from "./keys";
import { appLoginSessions } from "./login-sessions";
import { appLoginThrottle } from "./login-throttle";
import { appMembers } from "./members";
import { appOrganizations } from "./organizations";
import { appProjects } from "./projects";
import { appTeams } from "./teams";
import { appApiTokens } from "./tokens";
import { appUsers } from "./users";

export interface AppData {
  organizations: OrganizationRepo;
  projects: ProjectRepo;
  keys: ProjectKeyRepo;
  accounts: AccountStore;
}

export function appData(dialect: AppDialect): AppData {
  return {
    organizations: appOrganizations(dialect),
    projects: appProjects(dialect),
    keys: appKeys(dialect),
    accounts: {
      users: appUsers(dialect),
      loginSessions: appLoginSessions(dialect),
      tokens: appApiTokens(dialect),
      members: appMembers(dialect),
      teams: appTeams(dialect),
      invites: appInvites(dialect),
      audit: appAudit(dialect),
      loginThrottle: appLoginThrottle(dialect),
    },
  };
}
