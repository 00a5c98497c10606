import { AppError } from "../errors";

/** Sentry's generic paging parameters: `per_page` (1–100, default 100) and `cursor`. */
export function pageParamsOf(url: URL): { limit: number; cursor?: string } {
  const raw = url.searchParams.get("per_page") ?? url.searchParams.get("limit");
  const limit = raw === null || raw === "" ? 100 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new AppError("bad_request", `invalid per_page: ${raw} (expected an integer from 1 to 100)`);
  }
  const cursor = url.searchParams.get("cursor") || undefined;
  return cursor === undefined ? { limit } : { limit, cursor };
}
