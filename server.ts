/**
 * The single process entry: one node:http server, one port. Ingest paths are answered by our own
 * handler (src/ingest/http.ts); everything else goes to Next.js (UI and the /api/0 REST API). SDKs'
 * ingest requests are read straight off the socket ahead of node:http (src/http/direct-server.ts,
 * docs/adr/0008-direct-ingest-path.md); every other connection is node:http's.
 * `tsx server.ts` serves a production build; `tsx server.ts --dev` runs Next in development mode.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import next from "next";
import { ConfigError, loadConfig, type Config } from "./src/config";
import { AppError } from "./src/errors";
import { discardRest } from "./src/ingest/body";
import { directIngest } from "./src/ingest/direct";
import { handleIngest, sendIngestError, type IngestDeps } from "./src/ingest/http";
import { DirectServer } from "./src/http/direct-server";
import { BufferBudget } from "./src/ingest/budget";
import { applyPageHeaders } from "./src/http/page-headers";
import { KeyCache } from "./src/ingest/keys";
import { SpikeLimitCache } from "./src/ingest/spike-protection";
import { PrivacyCache } from "./src/ingest/privacy-cache";
import { matchIngestRoute, type IngestRoute } from "./src/ingest/route";
import { inProcessSink, type IngestSink } from "./src/ingest/sink";
import { GroupCommitWriter } from "./src/ingest/writer";
import { createItemRegistry } from "./src/items";
// Cron monitors and user feedback.
import { checkInSink } from "./src/services/monitors/check-ins";
import { startMonitorDetection } from "./src/services/monitors/detection";
import { feedbackSink } from "./src/services/feedback/record";
import { createLogger } from "./src/logger";
import { createServerCapture } from "./src/monitoring/server-capture";
import { monitoringSetup } from "./src/monitoring/setup";
import { peekRuntime, setRuntime } from "./src/runtime";
import { dsnFor } from "./src/services/projects/dsn";
import { ensureMonitoringProject } from "./src/services/monitoring/ensure-monitoring-project";
import { ensureDefaults } from "./src/services/projects/ensure-defaults";
import { createOwner, needsSetup } from "./src/services/accounts/users";
import { newSecret } from "./src/auth/secrets";
import { CLIENT_IP_HEADER, clientIpOf } from "./src/ingest/client-ip";
import { createStorage } from "./src/storage";
import { startSymbolicator } from "./src/symbolication";
import { databaseLabel } from "./src/database-label";
import { answerHealth, answerNotReady, databaseCheck, isHealthRequest, type ServerPhase } from "./src/http/readiness";

const root = path.resolve(import.meta.dirname);

function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
}

export interface RunningServer {
  server: Server;
  url: string;
  stop(): Promise<void>;
}

function publicUrlOf(config: Config, port: number): string {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

export interface StartOptions {
  dev: boolean;
  /** Awaited after the port is bound and before Next is prepared: the test hook that holds the UI back. */
  beforeUi?: () => Promise<void>;
}

export async function startServer(config: Config, options: StartOptions): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const storage = await createStorage(config, logger);
  logger.info(`Database: ${databaseLabel(config)}`);
  const defaults = await ensureDefaults(storage);
  const monitoringProject = await ensureMonitoringProject(storage, defaults.organization);
  const setupToken = newSecret();
  const bootstrap = config.auth.bootstrapAdmin;
  if (bootstrap && (await needsSetup(storage))) {
    try {
      await createOwner(storage, defaults.organization, { email: bootstrap.email, password: bootstrap.password }, { via: "environment" });
      logger.info(`Created the owner account ${bootstrap.email} from PERISCOPE_ADMIN_EMAIL`);
    } catch (error) {
      // Several processes starting on one empty PostgreSQL all try; the losers find it done.
      if (!(error instanceof AppError && error.code === "conflict") || (await needsSetup(storage))) throw error;
    }
  }
  const release = `periscope@${packageVersion()}`;
  const keys = new KeyCache(storage, undefined, undefined, new SpikeLimitCache(storage, config.spikeProtectionMinPerHour));
  const captureServerException = createServerCapture({
    config, store: storage.ingest, logger, monitoringProjectId: monitoringProject.project.id, release, root,
  });
  const privacy = new PrivacyCache(storage, (projectId, error) =>
    logger.warn(`project ${projectId}: advanced data scrubbing rules did not compile, applied without them: ${(error as Error).message}`),
  );
  // The source-map thread itself starts with the first event that needs a map (sourcemap.main.ts).
  const symbolication = startSymbolicator(storage.artifacts, {
    cacheBytes: config.sourceMapCacheBytes,
    onStopped: (reason) => void captureServerException(new Error(reason), { mechanism: "symbolication.thread" }),
  });
  const writer = new GroupCommitWriter(storage.ingest, config.writer);
  // Check-ins and feedback are app data, stored before the envelope is answered; a failing monitor's
  // issue events go through the same writer as SDK events.
  const commitRecords = (records: Parameters<GroupCommitWriter["submit"]>[0]) => writer.submit(records);
  const appSinks = { checkIns: checkInSink(storage, commitRecords), feedback: feedbackSink(storage) };
  const sink: IngestSink = inProcessSink(createItemRegistry(config.limits, symbolication?.symbolicator ?? null, appSinks), writer, config.limits);
  const monitorDetection = startMonitorDetection(storage, commitRecords, config.monitorDetectionIntervalMs, (message) => logger.warn(message));
  // The SQLite commit thread starts now: started by the first SDK request, that request waited for it.
  storage.ingest.start?.();

  if (!options.dev) adoptBuiltNextConfig(root);
  const app = next({ dev: options.dev, dir: root });
  const nextHandler = app.getRequestHandler();

  // Known once the port is bound (PORT=0 picks one); requests only arrive after that.
  let publicUrl = "";
  const deps: IngestDeps = {
    config,
    get publicUrl() {
      return publicUrl;
    },
    keys,
    keyRates: storage.keyRates,
    quotaCounts: storage.quotaCounts,
    privacy,
    budget: new BufferBudget(config.buffers),
    sink,
    logger,
    captureServerException,
  };

  // Node checks the header and request timeouts only every connectionsCheckingInterval (30 s by
  // default); check often enough that a slow client is cut off close to its deadline.
  const connectionsCheckingInterval = Math.max(250, Math.min(config.http.headersTimeoutMs, config.http.requestTimeoutMs) / 4);
  // The port is bound before Next is prepared (≈ 1 s), so SDKs are served at once; until then every
  // other request gets 503 + Retry-After: Next would reject it and leave it without an answer.
  let ui: "preparing" | "ready" | "failed" = "preparing";
  let stopping = false;
  const phase = (): ServerPhase => (stopping ? "stopping" : ui === "ready" ? "ready" : "starting");
  const database = databaseCheck(() => storage.ping());
  const pageHeaderOptions = { dev: options.dev, https: config.publicUrl?.startsWith("https:") ?? false };
  const server = createServer({ connectionsCheckingInterval }, (req, res) => {
    if (isHealthRequest(req.url ?? "/")) {
      void answerHealth(req, res, phase(), database);
      return;
    }
    let route: IngestRoute | null;
    try {
      route = matchIngestRoute(req.url ?? "/");
    } catch (error) {
      sendIngestError(res, error instanceof AppError ? error : new AppError("bad_request", "bad request"));
      discardRest(req);
      return;
    }
    if (route) {
      void handleIngest(req, res, route, deps);
      return;
    }
    if (ui !== "ready") {
      answerNotReady(req, res, ui === "preparing" ? "starting" : "failed");
      return;
    }
    // Next's handlers cannot see the socket: hand them the client address (login throttling, audit
    // log) in a header, overwriting whatever a client sent under that name.
    req.headers[CLIENT_IP_HEADER] = clientIpOf(req, config.auth.trustProxy);
    if (!applyPageHeaders(req, res, pageHeaderOptions)) return;
    nextHandler(req, res).catch((error: unknown) => {
      // Next answers its own errors; this is a failure of Next itself. Answer, never leave the client hanging.
      void captureServerException(error, { mechanism: "next.handler" }); // logs it too
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("internal server error\n");
      } else {
        res.destroy();
      }
    });
  });
  // Slow clients must not hold sockets forever (slowloris): bounded header and request time, and a
  // cap on open connections so they cannot exhaust file descriptors.
  server.headersTimeout = config.http.headersTimeoutMs;
  server.requestTimeout = config.http.requestTimeoutMs;
  server.keepAliveTimeout = 5_000;
  server.maxConnections = config.http.maxConnections;
  // SDKs' ingest requests are read off the socket ahead of node:http; every other connection is node:http's.
  const direct = new DirectServer(server, {
    handlerFor: directIngest(deps),
    maxBodyBytes: config.limits.maxRequestBytes,
    headersTimeoutMs: config.http.headersTimeoutMs,
    requestTimeoutMs: config.http.requestTimeoutMs,
    keepAliveTimeoutMs: server.keepAliveTimeout,
    maxConnectionsPerAddress: config.http.maxConnectionsPerAddress,
    headersTimeoutUnderPressureMs: config.http.headersTimeoutUnderPressureMs,
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = publicUrlOf(config, port);
  publicUrl = url;
  setRuntime({
    config,
    storage,
    publicUrl: url,
    invalidateKeys: () => {
      keys.invalidate();
      privacy.invalidate();
    },
    setupToken,
    monitoring: monitoringSetup(config, { organization: defaults.organization, ...monitoringProject }, url, release),
    captureServerException,
  });
  logger.info(`Listening at ${url}; preparing the UI (pages answer 503 until it is ready)`);

  let stopped: Promise<void> | null = null;
  const stop = () => {
    stopping = true;
    stopped ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      direct.closeIdleConnections();
      await closed;
      const { answered, handedOver } = direct.counts;
      logger.info(`Ingest requests answered straight off the socket: ${answered}; connections handed to node:http: ${handedOver}`);
      if (direct.refusedConnections > 0) logger.info(`Connections closed for MAX_CONNECTIONS_PER_ADDRESS: ${direct.refusedConnections}`);
      await monitorDetection.stop();
      await sink.close();
      await symbolication?.close();
      // After a failed prepare there may be nothing of Next's to close, and its error was reported already.
      await (ui === "failed" ? app.close().catch(() => undefined) : app.close());
      await storage.close();
      setRuntime(null);
    })();
    return stopped;
  };

  try {
    await options.beforeUi?.();
    await withoutConfigTiming(() => app.prepare());
  } catch (error) {
    // Requests meanwhile get 503 (answerNotReady), not silence; the caller reports the error and exits.
    ui = "failed";
    await stop();
    throw error;
  }
  ui = "ready";
  // Next's live reload (dev) talks over a websocket upgrade on the same port.
  if (options.dev) {
    const upgrade = app.getUpgradeHandler();
    server.on("upgrade", (req, socket, head) => void upgrade(req, socket, head));
  }

  logger.info(`Periscope is running at ${url}`);
  logger.info(`Default project DSN: ${dsnFor(url, defaults.key)}`);
  if (await needsSetup(storage)) {
    logger.info(`No account exists yet: open ${url}/setup?token=${setupToken} to create the owner account`);
  }
  return { server, url, stop };
}

export async function main(): Promise<void> {
  // No anonymous usage telemetry to Vercel from a self-hosted server (scripts/start.mjs sets it for the build too).
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Test builds only (ENABLE_TEST_HOOKS): hold the UI back until a file exists, to test the window before it is ready.
  const holdUiUntil = config.testHooks ? process.env.TEST_HOOK_HOLD_UI_UNTIL : undefined;
  const running = await startServer(config, {
    dev: process.argv.includes("--dev"),
    beforeUi: holdUiUntil ? () => untilFileExists(holdUiUntil) : undefined,
  });
  process.on("unhandledRejection", (reason) => {
    // peekRuntime: during shutdown the runtime is gone, and a throw in this handler would crash the process.
    void peekRuntime()?.captureServerException(reason, { mechanism: "process.unhandledRejection" });
  });
  // SIGTERM: stop accepting, let in-flight requests finish, commit what was acknowledged-to-be, exit.
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void running.stop().then(() => process.exit(0));
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    // A database that cannot be used at startup is an operator's problem: its message is enough.
    console.error(error instanceof Error && error.name === "DatabaseStartupError" ? error.message : error);
    process.exit(1);
  });
}

/**
 * Runs `fn` without Next's "✓ Running next.config took 1.6ms" line, which its router prints at every
 * start whatever the log level (even for the config the build recorded, adoptBuiltNextConfig): the
 * console says what Periscope does. Every other line passes.
 */
async function withoutConfigTiming<T>(fn: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && /^\S+ Running next\.config\S* took \S+$/.test(args[0])) return;
    log(...args);
  };
  try {
    return await fn();
  } finally {
    console.log = log;
  }
}

/** Resolves once `file` exists; rejects if it says "fail", to test a UI that cannot be prepared. */
async function untilFileExists(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
  if (readFileSync(file, "utf8").trim() === "fail") throw new Error(`preparing the UI failed on purpose (TEST_HOOK_HOLD_UI_UNTIL=${file} says "fail")`);
}

/**
 * Hands Next the config its production build already resolved, as Next's own standalone server
 * does. Left to itself, Next compiles next.config.ts with SWC at every start, and SWC's native
 * library then stays mapped for the life of the process: ≈ 25 MB of resident memory that serving
 * never uses (docs/adr/0007-production-next-config-from-the-build.md). Without a build, or with a
 * manifest that cannot be read, there is nothing to hand over and Next loads the file as usual.
 */
function adoptBuiltNextConfig(root: string): void {
  let manifest: { config?: unknown };
  try {
    manifest = JSON.parse(readFileSync(path.join(root, ".next", "required-server-files.json"), "utf8")) as { config?: unknown };
  } catch {
    return;
  }
  if (manifest.config) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG ??= JSON.stringify(manifest.config);
}
