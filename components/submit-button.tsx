"use client";

import type { ReactNode } from "react";
import { useFormStatus } from "react-dom";

/** A submit button that disables itself while its form's server action runs. */
export function SubmitButton({
  children,
  className,
  name,
  value,
  disabled = false,
  title,
}: {
  children: ReactNode;
  className: string;
  name?: string;
  value?: string;
  /** Not allowed for this person: shown, but not usable. */
  disabled?: boolean;
  title?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={className} disabled={pending || disabled} aria-disabled={pending || disabled} name={name} value={value} title={title}>
      {children}
    </button>
  );
}
