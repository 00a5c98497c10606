"use client";

import * as Sentry from "@sentry/react";
import { scrubEventPaths } from "@/src/monitoring/route-names";
import type { MonitoringSetup } from "@/src/monitoring/setup";

let initialised = false;

/**
 * Starts Periscope's own browser SDK: errors (global handlers and the error boundaries), sessions,
 * client reports and performance spans (page loads, navigations, fetches, web vitals). Everything is
 * posted to the same-origin tunnel; the browser never talks to another origin for monitoring.
 * Every span, event and breadcrumb has this app's paths turned into route names first
 * (`/organizations/:org/issues`): the monitoring project must not learn other organisations' slugs.
 */
function initMonitoring(setup: MonitoringSetup): void {
  if (initialised || typeof window === "undefined") return;
  initialised = true;
  const marker = setup.dropMarker;
  Sentry.init({
    dsn: setup.dsn,
    tunnel: setup.tunnel,
    release: setup.release,
    environment: setup.environment,
    integrations: [Sentry.browserTracingIntegration()],
    tracesSampleRate: 1,
    sendClientReports: true,
    beforeSend: (event) => {
      // Test builds only: lets the tests drop an event on purpose and see the client report counted.
      if (marker && JSON.stringify([event.message, event.exception]).includes(marker)) return null;
      return scrubEventPaths(event);
    },
    beforeSendSpan: (span) => scrubEventPaths(span),
    beforeSendTransaction: (event) => scrubEventPaths(event),
    beforeBreadcrumb: (breadcrumb) => scrubEventPaths(breadcrumb),
  });
}

/** Rendered once in the root layout; initialises during hydration so the page-load span starts early. */
export function MonitoringInit({ setup }: { setup: MonitoringSetup | null }) {
  if (setup) initMonitoring(setup);
  return null;
}

/** For error boundaries: server errors (with a digest) were already captured on the server. */
export function captureBoundaryError(error: Error & { digest?: string }): void {
  if (error.digest) return;
  Sentry.captureException(error, { mechanism: { type: "auto.function.react.error_boundary", handled: false } });
}
