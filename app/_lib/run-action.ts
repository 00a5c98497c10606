import { appErrorOf } from "@/components/app-error";
import type { ActionState } from "./action-state";

/**
 * Runs a server action's work; an AppError (refused, not found, invalid) becomes the form's error
 * message instead of an error page. Anything else — including Next's redirect — propagates.
 */
export async function runAction(work: () => Promise<Partial<ActionState> | void>): Promise<ActionState> {
  try {
    const result = (await work()) ?? {};
    return { error: result.error ?? null, message: result.message ?? null, secret: result.secret ?? null };
  } catch (error) {
    const appError = appErrorOf(error);
    if (!appError) throw error;
    return { error: [appError.message, ...appError.causes].join(" — "), message: null, secret: null };
  }
}
