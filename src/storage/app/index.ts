/**
 * App data (organisations, projects, keys, accounts), written once for both engines over Kysely
 * (ADR 0011). Each engine's index.ts builds its dialect (dialect.ts) and takes these repositories;
 * telemetry, ingest and retention stay hand-written per engine.
 */
import type { AccountStore } from "../accounts-types";
import type {
  ArtifactStore,
  IssueTriageRepo,
  OrganizationRepo,
  PrivacyRepo,
  ProjectKeyRepo,
  ProjectOptionsRepo,
  ProjectRepo,
  QuotaRepo,
  ReleaseRepo,
  SavedSearchRepo,
} from "../types";
import type { AlertStore } from "../alert-types";
import { appAlertFeed, appAlertOutbox } from "./alert-outbox";
import { appAlertRules, appAlertSettings } from "./alert-rules";
import { appSavedSearches } from "./saved-searches";
// Metric alerts (issue 34 item 2).
import { appMetricRules } from "./metric-alert-rules";
import { appArtifacts } from "./artifacts";
import { appAudit } from "./audit";
import type { BlobStore } from "./blobs";
import type { AppDialect } from "./dialect";
import { appIssueTriage } from "./issue-triage";
import { appInvites } from "./invites";
import { appKeys } from "./keys";
import { appLoginSessions } from "./login-sessions";
import { appLoginThrottle } from "./login-throttle";
import { appMembers } from "./members";
import { appOrganizations } from "./organizations";
import { appProjectOptions } from "./project-options";
import { appPrivacy } from "./privacy";
import { appProjects } from "./projects";
import { appQuotas } from "./quotas";
import { appReleases } from "./releases";
import { appTeams } from "./teams";
import { appApiTokens } from "./tokens";
import { appUsers } from "./users";
// Cron monitors and user feedback.
import { appFeedback } from "./feedback";
import { appMonitors } from "./monitors";
import type { FeedbackRepo, MonitorRepo } from "../monitor-types";

export interface AppData {
  organizations: OrganizationRepo;
  projects: ProjectRepo;
  keys: ProjectKeyRepo;
  projectOptions: ProjectOptionsRepo;
  privacy: PrivacyRepo;
  /** Quotas (issue 33 item 4). */
  quotas: QuotaRepo;
  accounts: AccountStore;
  releases: ReleaseRepo;
  artifacts: ArtifactStore;
  // Issue search (issue 35).
  savedSearches: SavedSearchRepo;
  // Cron monitors and user feedback.
  monitors: MonitorRepo;
  feedback: FeedbackRepo;
  // Issue workflow.
  issueTriage: IssueTriageRepo;
  // Alerts (issue 34).
  alerts: AlertStore;
}

/** `blobs`: where the engine keeps artifact bytes (blobs.ts). */
export function appData(dialect: AppDialect, blobs: BlobStore): AppData {
  return {
    releases: appReleases(dialect),
    artifacts: appArtifacts(dialect, blobs),
    // Cron monitors and user feedback.
    monitors: appMonitors(dialect),
    feedback: appFeedback(dialect),
    issueTriage: appIssueTriage(dialect),
    // Alerts (issue 34).
    alerts: { rules: appAlertRules(dialect), feed: appAlertFeed(dialect), outbox: appAlertOutbox(dialect), settings: appAlertSettings(dialect), metricRules: appMetricRules(dialect) },
    organizations: appOrganizations(dialect),
    projects: appProjects(dialect),
    keys: appKeys(dialect),
    projectOptions: appProjectOptions(dialect),
    privacy: appPrivacy(dialect),
    // Issue search (issue 35).
    savedSearches: appSavedSearches(dialect),
    quotas: appQuotas(dialect),
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
