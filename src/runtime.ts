/**
 * The process-wide runtime, shared by the ingest door and the Next.js side. Next bundles its server
 * code separately, so a plain module singleton would exist twice; the runtime is therefore kept on
 * globalThis under a registered symbol, set once by server.ts before Next handles any request.
 * This module must import types only, so the Next bundle never pulls in the database driver.
 */
import type { Config } from "./config";
import type { MonitoringSetup } from "./monitoring/setup";
import type { CaptureServerException } from "./monitoring/server-capture";
import type { Storage } from "./storage/types";

export interface Runtime {
  config: Config;
  storage: Storage;
  /** Base URL of this server as SDKs and browsers should reach it (no trailing slash). */
  publicUrl: string;
  /** Drop cached project keys after a key or project change. */
  invalidateKeys(): void;
  /** The UI's own SDK settings (DSN, tunnel); null when self-monitoring is off. */
  monitoring: MonitoringSetup | null;
  /**
   * While no account exists: the secret in the setup link this process printed at start. Only that
   * link opens the setup page, so whoever reaches a fresh server first over the network cannot make
   * themselves its owner.
   */
  setupToken: string;
  /** Records a server-side exception in self-monitoring; resolves to the event id when stored. */
  captureServerException: CaptureServerException;
  // Alerts (issue 34): runs the alert job now (a test notification was queued).
  kickAlerts(): void;
}

const RUNTIME = Symbol.for("periscope.runtime");
type Holder = { [RUNTIME]?: Runtime };

export function setRuntime(runtime: Runtime | null): void {
  const holder = globalThis as Holder;
  if (runtime) holder[RUNTIME] = runtime;
  else delete holder[RUNTIME];
}

/** The runtime, or null outside a server started by server.ts (e.g. during `next build`). */
export function peekRuntime(): Runtime | null {
  return (globalThis as Holder)[RUNTIME] ?? null;
}

export function getRuntime(): Runtime {
  const runtime = (globalThis as Holder)[RUNTIME];
  if (!runtime) throw new Error("Periscope runtime is not initialised: start the app through server.ts");
  return runtime;
}
