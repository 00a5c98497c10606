"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import { CopyButton } from "./copy-button";
import type { SetupSnippet } from "./snippets";

/** Tabs over the SDK setup snippets (WAI-ARIA tabs pattern: arrow keys move between tabs). */
export function SnippetTabs({ snippets }: { snippets: SetupSnippet[] }) {
  const [selected, setSelected] = useState(0);
  const baseId = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const snippet = snippets[selected];

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const delta = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (delta === 0) return;
    event.preventDefault();
    const next = (selected + delta + snippets.length) % snippets.length;
    setSelected(next);
    tabs.current[next]?.focus();
  }

  if (!snippet) return null;
  return (
    <div className="overflow-hidden rounded-lg border border-line">
      <div role="tablist" aria-label="Platform" onKeyDown={onKeyDown} className="flex overflow-x-auto border-b border-line bg-surface-2">
        {snippets.map((item, index) => (
          <button
            key={item.id}
            ref={(element) => {
              tabs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${item.id}`}
            aria-selected={index === selected}
            aria-controls={`${baseId}-panel`}
            tabIndex={index === selected ? 0 : -1}
            onClick={() => setSelected(index)}
            className="shrink-0 border-b-2 border-transparent px-3 py-2 text-sm font-medium whitespace-nowrap text-muted hover:text-fg aria-selected:border-accent aria-selected:text-fg"
          >
            {item.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-panel`} aria-labelledby={`${baseId}-tab-${snippet.id}`} className="space-y-3 bg-surface p-3">
        <CodeBlock label="Install" code={snippet.install} />
        <CodeBlock label={`Configure — ${snippet.file}`} code={snippet.code} />
      </div>
    </div>
  );
}

/** A labelled code block; the copy button sits on the label line so it never covers code. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <div>
      <div className="mb-1 flex items-end justify-between gap-2">
        <p className="text-xs font-medium text-muted">{label}</p>
        <CopyButton text={code} />
      </div>
      <pre className="overflow-x-auto rounded-md border border-line bg-code p-3 font-mono text-xs leading-5">
        <code>{code}</code>
      </pre>
    </div>
  );
}
