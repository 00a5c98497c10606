import Link from "next/link";
import type { ReactNode } from "react";
import { hrefWith } from "../search-params";

/** A duration in ms as the tables show it; the exact value is in `data-value` for tests and tooltips. */
export function Ms({ value, testId }: { value: number | null; testId?: string }) {
  if (value === null) return <span className="text-subtle">—</span>;
  const text = value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(value >= 100 ? 0 : 1)} ms`;
  return (
    <span data-testid={testId} data-value={value} title={`${value} ms`} className="tabular-nums">
      {text}
    </span>
  );
}

export function Rate({ value, testId }: { value: number; testId?: string }) {
  return (
    <span data-testid={testId} data-value={value} title={String(value)} className="tabular-nums">
      {(value * 100).toFixed(value > 0 && value < 0.1 ? 2 : 1)}%
    </span>
  );
}

/** The tabs of the performance section. */
export function PerformanceTabs({ base, active, keep }: { base: string; active: "transactions" | "vitals"; keep: Record<string, string | undefined> }) {
  const tab = (id: "transactions" | "vitals", label: string, href: string): ReactNode => (
    <Link
      key={id}
      href={href}
      aria-current={active === id ? "page" : undefined}
      className={`border-b-2 px-3 py-2 text-sm font-medium ${active === id ? "border-accent text-fg" : "border-transparent text-muted hover:text-fg"}`}
    >
      {label}
    </Link>
  );
  return (
    <nav aria-label="Performance views" className="flex gap-1 border-b border-line">
      {tab("transactions", "Transactions", hrefWith(base, keep))}
      {tab("vitals", "Web vitals", hrefWith(`${base}/vitals`, keep))}
    </nav>
  );
}
