"use client";

import { useEffect, useRef, type ReactNode } from "react";

/**
 * A <details> menu: works without JavaScript; with it, closes on Escape, on a click outside and
 * after a choice is followed.
 */
export function Dropdown({
  summary,
  children,
  label,
  align = "left",
}: {
  summary: ReactNode;
  children: ReactNode;
  label: string;
  align?: "left" | "right";
}) {
  const ref = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const close = (event: Event) => {
      if (!details.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== "Escape") return;
        details.open = false;
        details.querySelector("summary")?.focus();
        return;
      }
      if (event.target instanceof Node && !details.contains(event.target)) details.open = false;
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);

  return (
    <details ref={ref} className="group relative">
      <summary
        aria-label={label}
        className="flex list-none items-center gap-1.5 rounded-md px-2 py-1.5 font-medium hover:bg-surface-2"
      >
        {summary}
        <svg width="12" height="12" viewBox="0 0 12 12" aria-hidden className="text-subtle transition group-open:rotate-180">
          <path d="M3 4.5 6 7.5 9 4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </summary>
      <div
        className={`absolute z-30 mt-1 max-h-80 min-w-56 overflow-auto rounded-lg border border-line bg-surface p-1 shadow-lg ${
          align === "right" ? "right-0" : "left-0"
        }`}
        onClick={(event) => {
          if (event.target instanceof Element && event.target.closest("a") && ref.current) ref.current.open = false;
        }}
      >
        {children}
      </div>
    </details>
  );
}
