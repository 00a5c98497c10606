/**
 * `health=1` on the releases routes (Sentry's `OrganizationReleasesEndpoint`): each project of each
 * release gets `healthData`. `summaryStatsPeriod` (default 14d) sets the window of the rates and
 * totals; adoption is over the last 24 hours, as in Sentry. `environment` (repeatable) narrows both.
 * `healthStatsPeriod` (24h or 14d) adds `stats` buckets of `healthStat` (sessions, the default, or users).
 */
import { AppError } from "../errors";
import { apiReleaseHealth, HEALTH_STATS_PERIODS, type ApiHealth, type HealthStatsPeriod } from "../services/releases/health";
import type { ReleaseSummary } from "../services/releases/releases";
import { getRuntime } from "../runtime";

const PERIODS: Record<string, number> = { "1h": 1, "24h": 24, "1d": 24, "48h": 48, "2d": 48, "7d": 168, "14d": 336, "30d": 720, "90d": 2160 };
const HOUR = 3_600_000;

export async function healthForRequest(request: Request, summaries: ReleaseSummary[]): Promise<Map<string, ApiHealth> | undefined> {
  const params = new URL(request.url).searchParams;
  const health = params.get("health");
  if (health === null || health === "0" || health === "false" || health === "") return undefined;
  if (health !== "1" && health !== "true") throw new AppError("bad_request", `Invalid health: "${health.slice(0, 40)}" (use 1 or 0)`);
  const period = params.get("summaryStatsPeriod") ?? "14d";
  const hours = PERIODS[period];
  if (hours === undefined) throw new AppError("bad_request", `Invalid summaryStatsPeriod: "${period.slice(0, 40)}" (supported: ${Object.keys(PERIODS).join(", ")})`);
  const statsPeriod = params.get("healthStatsPeriod") || null;
  if (statsPeriod !== null && !Object.hasOwn(HEALTH_STATS_PERIODS, statsPeriod)) {
    throw new AppError("bad_request", `Invalid healthStatsPeriod: "${statsPeriod.slice(0, 40)}" (supported: ${Object.keys(HEALTH_STATS_PERIODS).join(", ")})`);
  }
  const statsOf = params.get("healthStat") || "sessions";
  if (statsOf !== "sessions" && statsOf !== "users") throw new AppError("bad_request", `Invalid healthStat: "${statsOf.slice(0, 40)}" (supported: sessions, users)`);
  const environments = params.getAll("environment").filter((value) => value !== "");
  const projectIds = [...new Set(summaries.flatMap((summary) => summary.projects.map((project) => project.id)))];
  return apiReleaseHealth(getRuntime().storage, projectIds, summaries.map((summary) => summary.version), {
    now: Date.now(), summaryPeriod: hours * HOUR, statsOf, ...(environments.length > 0 ? { environments } : {}),
    ...(statsPeriod !== null ? { statsPeriod: statsPeriod as HealthStatsPeriod } : {}),
  });
}
