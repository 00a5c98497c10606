import { AppError } from "../errors";

export type IngestEndpoint = "envelope" | "store" | "tunnel";

export interface IngestRoute {
  endpoint: IngestEndpoint;
  /** Null for the legacy `/api/store/` form, where the key decides the project. */
  projectId: string | null;
  query: URLSearchParams;
}

const INGEST_PATH = /^\/api\/(?:([^/]+)\/)?(envelope|store)\/?$/;
/** The UI's own monitoring tunnel (src/ingest/tunnel.ts). */
const TUNNEL_PATH = /^\/monitoring\/?$/;

/**
 * Matches the ingest door's paths; null means "not ours, hand to Next". Repeated slashes are
 * collapsed as Relay does (`//api///1//envelope/`). A non-numeric project id is still ours: 400.
 */
export function matchIngestRoute(rawUrl: string): IngestRoute | null {
  const queryStart = rawUrl.indexOf("?");
  const pathname = (queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart)).replace(/\/{2,}/g, "/");
  const query = new URLSearchParams(queryStart === -1 ? "" : rawUrl.slice(queryStart + 1));
  if (TUNNEL_PATH.test(pathname)) return { endpoint: "tunnel", projectId: null, query };
  const match = INGEST_PATH.exec(pathname);
  if (!match) return null;
  const endpoint = match[2] as IngestEndpoint;
  const projectId = match[1] ?? null;
  if (projectId === null && endpoint === "envelope") return null;
  if (projectId !== null && !/^\d+$/.test(projectId)) {
    throw new AppError("bad_request", "bad project path parameter");
  }
  return { endpoint, projectId, query };
}
