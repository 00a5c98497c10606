import type { ReactNode } from "react";

export const FILTERED = "[Filtered]";

/** Text with each `[Filtered]` marked, so the page says the value was filtered by data scrubbing. */
export function FilteredText({ text }: { text: string }): ReactNode {
  if (!text.includes(FILTERED)) return text;
  const parts = text.split(FILTERED);
  return parts.map((part, index) => (
    <span key={index}>
      {part}
      {index < parts.length - 1 ? (
        <mark
          title="Filtered by data scrubbing before it was stored"
          data-testid="filtered-value"
          className="rounded bg-amber-100 px-0.5 text-amber-900 dark:bg-amber-500/20 dark:text-amber-200"
        >
          {FILTERED}
        </mark>
      ) : null}
    </span>
  ));
}
