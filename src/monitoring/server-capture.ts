import type { Config } from "../config";
import { parseDsn } from "../ingest/auth";
import type { IngestStore } from "../storage/types";
import { processEventPayload } from "../items/event";
import type { Logger } from "../logger";
import { serverErrorEvent, type ServerErrorContext } from "./error-event";

export type CaptureServerException = (error: unknown, context: ServerErrorContext) => Promise<string | null>;

/**
 * Server-side exceptions go in-process into the internal project (local mode), by HTTP to the
 * upstream DSN (upstream mode), or only to the log (off). Capturing never throws: a failure to
 * report an error must not become a second error.
 */
export function createServerCapture(options: {
  config: Config;
  /**
   * The ingest store itself, not the ingest sink: a report is records already, and rare, so one
   * commit per report is fine.
   */
  store: Pick<IngestStore, "commit">;
  logger: Logger;
  monitoringProjectId: string;
  release: string;
  root: string;
}): CaptureServerException {
  const { config, store, logger } = options;
  return async (error, context) => {
    logger.error(`server error (${context.mechanism}${context.digest ? `, digest ${context.digest}` : ""})`, error);
    try {
      const raw = serverErrorEvent(error, context, { release: options.release, root: options.root });
      if (config.selfMonitoring.mode === "local") {
        const result = processEventPayload(raw, JSON.stringify(raw), {
          projectId: options.monitoringProjectId,
          envelopeHeaders: {},
          receivedAt: Date.now(),
          clientIp: undefined,
          userAgent: undefined,
        });
        await store.commit(result.records);
        return result.eventId ?? null;
      }
      if (config.selfMonitoring.mode === "upstream") {
        const dsn = parseDsn(config.selfMonitoring.dsn)!;
        const port = dsn.port === null ? "" : `:${dsn.port}`;
        const url = `${dsn.protocol}://${dsn.host}${port}${dsn.pathPrefix}/api/${dsn.projectId}/envelope/?sentry_key=${dsn.publicKey}&sentry_version=7`;
        const envelope = `${JSON.stringify({ event_id: raw.event_id, sent_at: new Date().toISOString() })}\n{"type":"event"}\n${JSON.stringify(raw)}`;
        const response = await fetch(url, { method: "POST", body: envelope, signal: AbortSignal.timeout(10_000) });
        await response.body?.cancel();
        if (!response.ok) throw new Error(`upstream answered ${response.status}`);
        return raw.event_id;
      }
    } catch (captureError) {
      logger.warn("could not record a server error in self-monitoring", captureError);
    }
    return null;
  };
}
