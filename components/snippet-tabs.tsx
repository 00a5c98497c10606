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
        <div>
          <p className="mb-1 text-xs font-medium text-muted">Install</p>
          <CodeBlock code={snippet.install} />
        </div>
        <div>
          <p className="mb-1 text-xs font-medium text-muted">Configure — {snippet.file}</p>
          <CodeBlock code={snippet.code} />
        </div>
      </div>
    </div>
  );
}

export function CodeBlock({ code }: { code: string }) {
  return (
    <div className="relative">
      <pre className="overflow-x-auto rounded-md border border-line bg-code p-3 pr-20 font-mono text-xs leading-5">
        <code>{code}</code>
      </pre>
      <div className="absolute top-2 right-2">
        <CopyButton text={code} />
      </div>
    </div>
  );
}
