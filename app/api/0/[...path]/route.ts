import { json } from "@/src/api/handle";

export const dynamic = "force-dynamic";

/** Paths under /api/0 that we do not serve answer in Sentry's error shape rather than with a page. */
function notFound(): Response {
  return json({ detail: "The requested resource does not exist" }, 404);
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
