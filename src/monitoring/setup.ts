import type { Config } from "../config";
import { dsnFor } from "../services/projects/dsn";
import type { Organization, Project, ProjectKey } from "../model";
import { TEST_DROP_MARKER } from "./test-drop-marker";

/** What the UI's SDK needs: its DSN and the same-origin tunnel path it posts to. */
export interface MonitoringSetup {
  dsn: string;
  /** Relative: `/monitoring?o=<organisation id>&p=<project id>[&r=<region>]`. */
  tunnel: string;
  environment: string;
  release: string;
  /** Test builds only: the UI drops events whose message contains this marker in beforeSend. */
  dropMarker: string | null;
}


function tunnelPath(organizationId: string, projectId: string, region: string | null): string {
  const query = new URLSearchParams({ o: organizationId, p: projectId });
  if (region) query.set("r", region);
  return `/monitoring?${query.toString()}`;
}

export function monitoringSetup(
  config: Config,
  local: { organization: Organization; project: Project; key: ProjectKey },
  publicUrl: string,
  release: string,
): MonitoringSetup | null {
  const common = { environment: "production", release, dropMarker: config.testHooks ? TEST_DROP_MARKER : null };
  const self = config.selfMonitoring;
  switch (self.mode) {
    case "off":
      return null;
    case "local":
      return {
        ...common,
        dsn: dsnFor(publicUrl, local.key),
        tunnel: tunnelPath(local.organization.id, local.project.id, config.region),
      };
    case "upstream": {
      const projectId = self.dsn.slice(self.dsn.lastIndexOf("/") + 1);
      return { ...common, dsn: self.dsn, tunnel: tunnelPath(self.organizationId, projectId, null) };
    }
  }
}
