import { notFound } from "next/navigation";
import type { AppErrorCode } from "@/src/errors";

/**
 * Duck-typed on purpose: the storage layer is loaded by server.ts outside the Next bundle, so an
 * AppError it throws is an instance of a different copy of the class and `instanceof` would miss it.
 */
export function appErrorOf(error: unknown): { code: AppErrorCode; message: string; causes: string[] } | null {
  if (!(error instanceof Error) || error.name !== "AppError" || !("code" in error)) return null;
  const causes = "causes" in error && Array.isArray(error.causes) ? error.causes.map(String) : [];
  return { code: error.code as AppErrorCode, message: error.message, causes };
}

/** Runs a service call; an AppError "not_found" renders the not-found page, anything else propagates. */
export async function orNotFound<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (appErrorOf(error)?.code === "not_found") notFound();
    throw error;
  }
}
