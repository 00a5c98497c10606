"use client";

import { useActionState, type ReactNode } from "react";
import type { CreateProjectState } from "@/app/organizations/[org]/projects/actions";
import { buttonClass, inputClass } from "./ui";

const PLATFORMS = [
  { value: "", label: "Choose later" },
  { value: "javascript", label: "Browser JavaScript" },
  { value: "node", label: "Node.js" },
  { value: "javascript-nextjs", label: "Next.js" },
  { value: "python", label: "Python" },
  { value: "other", label: "Other" },
];

const initialState: CreateProjectState = { error: null, fieldErrors: {}, values: { name: "", slug: "", platform: "", team: "" } };

/** The create form; validation and conflicts come back from the server action and show inline. */
export function CreateProjectForm({
  action,
  teams,
}: {
  action: (state: CreateProjectState, form: FormData) => Promise<CreateProjectState>;
  /** The teams that may own it; its members will see the project. */
  teams: { slug: string; name: string }[];
}) {
  const [state, formAction, pending] = useActionState(action, initialState);
  return (
    <form action={formAction} className="space-y-3" noValidate data-testid="create-project-form">
      {state.error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-200">
          {state.error}
        </p>
      ) : null}
      <Field id="project-name" label="Name" error={state.fieldErrors.name}>
        <input
          id="project-name"
          name="name"
          required
          maxLength={100}
          defaultValue={state.values.name}
          placeholder="Checkout web app"
          aria-invalid={state.fieldErrors.name ? true : undefined}
          aria-describedby={state.fieldErrors.name ? "project-name-error" : undefined}
          className={inputClass}
        />
      </Field>
      <Field id="project-slug" label="Slug" hint="Optional; derived from the name. Lower-case letters, digits, - and _." error={state.fieldErrors.slug}>
        <input
          id="project-slug"
          name="slug"
          maxLength={50}
          defaultValue={state.values.slug}
          placeholder="checkout-web"
          aria-invalid={state.fieldErrors.slug ? true : undefined}
          aria-describedby={state.fieldErrors.slug ? "project-slug-error" : "project-slug-hint"}
          className={`${inputClass} font-mono`}
        />
      </Field>
      <Field id="project-platform" label="Platform" error={state.fieldErrors.platform}>
        <select id="project-platform" name="platform" defaultValue={state.values.platform} className={inputClass}>
          {PLATFORMS.map((platform) => (
            <option key={platform.value} value={platform.value}>
              {platform.label}
            </option>
          ))}
        </select>
      </Field>
      <Field id="project-team" label="Team" hint="Members of this team see the project; owners and admins see every project.">
        <select id="project-team" name="team" defaultValue={state.values.team || teams[0]?.slug} className={inputClass}>
          {teams.map((team) => (
            <option key={team.slug} value={team.slug}>
              {team.name}
            </option>
          ))}
        </select>
      </Field>
      <button type="submit" className={buttonClass.primary} disabled={pending}>
        {pending ? "Creating…" : "Create project"}
      </button>
    </form>
  );
}

function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-subtle">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
