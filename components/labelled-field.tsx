import type { ReactNode } from "react";

/** A form control with its label above and an optional hint below (the alert rule editors). */
export function LabelledField({ label, children, hint }: { label: string; children: ReactNode; hint?: string }) {
  return (
    <label className="block space-y-1">
      <span className="text-sm font-medium">{label}</span>
      {children}
      {hint ? <span className="block text-xs text-subtle">{hint}</span> : null}
    </label>
  );
}
