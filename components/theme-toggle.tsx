"use client";

import { useState } from "react";

export type ThemeChoice = "system" | "light" | "dark";

const ORDER: ThemeChoice[] = ["system", "light", "dark"];
const YEAR_SECONDS = 31_536_000;

/**
 * Cycles system → light → dark. The choice lives in the `theme` cookie, which the root layout reads
 * to render `data-theme` on <html>, so the first paint already has the right colours.
 */
export function ThemeToggle({ initial }: { initial: ThemeChoice }) {
  const [choice, setChoice] = useState<ThemeChoice>(initial);
  const next = ORDER[(ORDER.indexOf(choice) + 1) % ORDER.length] ?? "system";

  function apply() {
    const root = document.documentElement;
    if (next === "system") {
      root.removeAttribute("data-theme");
      document.cookie = "theme=; path=/; max-age=0; SameSite=Lax";
    } else {
      root.setAttribute("data-theme", next);
      document.cookie = `theme=${next}; path=/; max-age=${YEAR_SECONDS}; SameSite=Lax`;
    }
    setChoice(next);
  }

  return (
    <button
      type="button"
      onClick={apply}
      className="inline-flex size-8 items-center justify-center rounded-md text-muted hover:bg-surface-2 hover:text-fg"
      aria-label={`Theme: ${choice}. Switch to ${next}`}
      title={`Theme: ${choice} (switch to ${next})`}
      data-testid="theme-toggle"
    >
      <ThemeIcon choice={choice} />
    </button>
  );
}

function ThemeIcon({ choice }: { choice: ThemeChoice }) {
  const common = {
    width: 18,
    height: 18,
    viewBox: "0 0 24 24",
    fill: "none",
    stroke: "currentColor",
    strokeWidth: 1.8,
    strokeLinecap: "round" as const,
    strokeLinejoin: "round" as const,
    "aria-hidden": true,
  };
  if (choice === "light") {
    return (
      <svg {...common}>
        <circle cx="12" cy="12" r="4" />
        <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
      </svg>
    );
  }
  if (choice === "dark") {
    return (
      <svg {...common}>
        <path d="M20.5 14.5A8.5 8.5 0 1 1 9.5 3.5a7 7 0 0 0 11 11z" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </svg>
  );
}
