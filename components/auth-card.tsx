import type { ReactNode } from "react";

/** The frame of the pages shown before signing in: logo, title and one card. */
export function AuthCard({ title, intro, children }: { title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-[85vh] w-full max-w-sm flex-col justify-center px-4 py-10">
      <div className="mb-5 flex items-center gap-2 font-semibold">
        <svg width="26" height="26" viewBox="0 0 24 24" aria-hidden className="text-accent">
          <circle cx="12" cy="12" r="10" fill="currentColor" opacity="0.15" />
          <circle cx="12" cy="12" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <circle cx="12" cy="12" r="2" fill="currentColor" />
        </svg>
        Periscope
      </div>
      <h1 className="text-xl font-semibold">{title}</h1>
      {intro ? <div className="mt-1 text-muted">{intro}</div> : null}
      <div className="mt-5 rounded-lg border border-line bg-surface p-4 shadow-sm">{children}</div>
    </main>
  );
}

export function FormAlert({ children, tone = "error" }: { children: ReactNode; tone?: "error" | "info" }) {
  const tones = {
    error: "border-red-300 bg-red-50 text-red-800 dark:border-red-500/40 dark:bg-red-500/10 dark:text-red-200",
    info: "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-500/40 dark:bg-emerald-500/10 dark:text-emerald-200",
  } as const;
  return (
    <p role={tone === "error" ? "alert" : "status"} className={`mb-3 rounded-md border px-3 py-2 text-sm ${tones[tone]}`}>
      {children}
    </p>
  );
}

export function LabeledInput({
  id,
  label,
  hint,
  ...input
}: { id: string; label: string; hint?: string } & React.InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="mb-3">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        {...input}
        className="w-full rounded-md border border-line bg-surface px-2.5 py-1.5 text-sm text-fg shadow-sm placeholder:text-subtle focus:border-accent focus:ring-2 focus:ring-accent/30 focus:outline-none"
      />
      {hint ? <p className="mt-1 text-xs text-subtle">{hint}</p> : null}
    </div>
  );
}

/** "Try again in 3 minutes" from the wait in seconds the throttle reported. */
export function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}
