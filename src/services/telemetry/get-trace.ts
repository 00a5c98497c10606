import { AppError } from "../../errors";
import type { Project, StoredSpan } from "../../model";
import type { Storage } from "../../storage/types";

/** Every span of a trace in the organisation's projects; a trace id that is not 32 hex digits is a 400, an unknown one a 404. */
export async function getTrace(storage: Storage, projects: Project[], rawTraceId: string): Promise<StoredSpan[]> {
  const traceId = rawTraceId.replace(/-/g, "").toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(traceId)) throw new AppError("bad_request", `invalid trace id: ${rawTraceId} (expected 32 hex digits)`);
  const spans = projects.length === 0 ? [] : await storage.spans.trace(projects.map((project) => project.id), traceId);
  if (spans.length === 0) throw new AppError("not_found", "trace not found");
  return spans;
}
