/** Monitors and check-ins in Sentry's API shapes (`MonitorSerializer`, `MonitorCheckInSerializer`). */
import type { CheckIn, Monitor, MonitorConfig, Project } from "../../model";
import { isoDate } from "./common";

const isoOrNull = (ms: number | null) => (ms === null ? null : isoDate(ms));

export function serializeMonitorConfig(config: MonitorConfig) {
  return {
    schedule_type: config.schedule.type,
    schedule: config.schedule.type === "crontab" ? config.schedule.value : [config.schedule.value, config.schedule.unit],
    checkin_margin: config.checkinMargin,
    max_runtime: config.maxRuntime,
    timezone: config.timezone ?? "UTC",
    failure_issue_threshold: config.failureIssueThreshold,
    recovery_threshold: config.recoveryThreshold,
    alert_rule_id: null,
  };
}

/** Sentry's environment status: ok, error (last run failed), missed_checkin, timeout, or active before any run. */
function environmentStatus(monitor: Monitor): string {
  switch (monitor.lastStatus) {
    case null:
    case "in_progress":
      return monitor.lastStatus === null ? "active" : "ok";
    case "missed":
      return "missed_checkin";
    default:
      return monitor.lastStatus;
  }
}

export function serializeMonitor(monitor: Monitor, project: Project) {
  return {
    id: monitor.id,
    slug: monitor.slug,
    name: monitor.name,
    status: monitor.status,
    type: "cron_job",
    isMuted: false,
    owner: null,
    alertRule: null,
    dateCreated: isoDate(monitor.dateCreated),
    config: serializeMonitorConfig(monitor.config),
    project: { id: project.id, slug: project.slug, name: project.name, platform: project.platform },
    // Periscope keeps one state per monitor; it is shown as the environment of its last check-in.
    environments: [
      {
        name: monitor.lastEnvironment ?? "production",
        status: environmentStatus(monitor),
        isMuted: false,
        dateCreated: isoDate(monitor.dateCreated),
        lastCheckIn: isoOrNull(monitor.lastCheckIn),
        nextCheckIn: isoOrNull(monitor.nextCheckIn),
        nextCheckInLatest: isoOrNull(monitor.nextCheckInLatest),
      },
    ],
    isFailing: monitor.health === "failing",
    issueId: monitor.incidentIssueId,
  };
}

export function serializeCheckIn(checkIn: CheckIn, monitor: Monitor) {
  return {
    id: checkIn.guid,
    status: checkIn.status,
    duration: checkIn.duration,
    environment: checkIn.environment ?? "production",
    dateCreated: isoDate(checkIn.dateAdded),
    dateAdded: isoDate(checkIn.dateAdded),
    dateUpdated: isoDate(checkIn.dateUpdated),
    expectedTime: isoOrNull(checkIn.expectedTime),
    monitorConfig: serializeMonitorConfig(monitor.config),
    contexts: checkIn.traceId ? { trace: { trace_id: checkIn.traceId } } : {},
    release: checkIn.release,
    groups: [],
  };
}
