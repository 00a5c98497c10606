/**
 * The domain types every layer shares: services, the API, the UI and the item modules import them
 * from here, never from storage/, which implements the repositories over them.
 */
export * from "./accounts";
export * from "./ingest";
export * from "./issues";
export * from "./projects";
export * from "./telemetry";
export * from "./performance";
export * from "./artifacts";
export * from "./releases";
export * from "./privacy";
// Logs and attachments (issue 38).
export * from "./logs";
export * from "./attachments";
// Issue search (issue 35): the parsed query tree.
export * from "./issue-search";
// Issue search (issue 35): saved searches.
export * from "./saved-searches";
// Cron monitors and user feedback.
export * from "./monitors";
export * from "./feedback";
export * from "./quotas";
export * from "./alerts";
export * from "./metric-alerts";
