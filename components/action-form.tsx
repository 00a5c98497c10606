"use client";

import { startTransition, useActionState, type FormEvent, type ReactNode } from "react";
import { IDLE, type ActionState } from "@/app/_lib/action-state";
import { CopyButton } from "./copy-button";

/**
 * A form bound to a server action that answers with an ActionState: the refusal or confirmation is
 * shown next to the form, and a one-time secret with a copy button. Buttons inside use SubmitButton
 * to show the pending state.
 */
export function ActionForm({
  action,
  children,
  className = "",
  secretLabel = "Copy it now: it will not be shown again.",
  testId,
  id,
  keepValues = false,
}: {
  action: (state: ActionState, form: FormData) => Promise<ActionState>;
  children: ReactNode;
  className?: string;
  secretLabel?: string;
  testId?: string;
  /** For controls elsewhere on the page that belong to this form (their `form` attribute). */
  id?: string;
  /**
   * Keep what was typed after the action answers (React resets a form whose `action` ran): for long
   * forms such as the alert rule editor, where a refusal must not cost the person their input.
   */
  keepValues?: boolean;
}) {
  const [state, formAction] = useActionState(action, IDLE);
  const submitKeepingValues = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => formAction(data));
  };
  return (
    <form action={keepValues ? undefined : formAction} onSubmit={keepValues ? submitKeepingValues : undefined} className={className} data-testid={testId} id={id}>
      {children}
      {state.error ? (
        <p role="alert" className="mt-2 w-full rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-200">
          {state.error}
        </p>
      ) : null}
      {state.message ? (
        <p role="status" className="mt-2 w-full text-sm text-emerald-800 dark:text-emerald-300">
          {state.message}
        </p>
      ) : null}
      {state.secret ? (
        <div className="mt-2 w-full rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-500/40 dark:bg-amber-500/10">
          <p className="mb-1 font-medium">{secretLabel}</p>
          <div className="flex items-center gap-2">
            <code data-testid="one-time-secret" className="min-w-0 flex-1 font-mono text-xs break-all">
              {state.secret}
            </code>
            <CopyButton text={state.secret} />
          </div>
        </div>
      ) : null}
    </form>
  );
}
