"use client";

import Link from "next/link";
import { useMemo, useState } from "react";
import { formatDuration } from "./format-duration";
import type { TraceRow, TraceRows } from "./trace-rows";

const PROJECT_COLORS = ["#6366f1", "#0891b2", "#d97706", "#16a34a", "#db2777", "#7c3aed", "#0d9488", "#dc2626"];


const failed = (status: string | null) => status !== null && status !== "ok" && status !== "unknown";

/**
 * The waterfall of one trace: a row per span (indented under its parent, collapsible), a bar placed
 * on the trace's time axis, a marker for the errors captured in it; the selected span's details in
 * the panel beside. Rows come ready from the server (trace-rows.ts): this keeps only what is open.
 */
export function TraceWaterfall({ trace, organizationSlug }: { trace: TraceRows; organizationSlug: string }) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<string | null>(() => trace.errors.find((error) => error.spanId !== null && trace.rows.some((row) => row.spanId === error.spanId))?.spanId ?? trace.rows[0]?.spanId ?? null);
  const total = Math.max(trace.end - trace.start, 0.001);
  const colorOf = useMemo(() => new Map(trace.projects.map((slug, i) => [slug, PROJECT_COLORS[i % PROJECT_COLORS.length]!])), [trace.projects]);

  // A row is hidden when an ancestor is collapsed: rows are in depth-first order, so one pass does.
  const visible: TraceRow[] = [];
  let hideBelow: number | null = null;
  for (const row of trace.rows) {
    if (hideBelow !== null && row.depth > hideBelow) continue;
    hideBelow = null;
    visible.push(row);
    if (collapsed.has(row.spanId) && row.descendants > 0) hideBelow = row.depth;
  }
  const toggle = (spanId: string) =>
    setCollapsed((before) => {
      const next = new Set(before);
      if (next.has(spanId)) next.delete(spanId);
      else next.add(spanId);
      return next;
    });
  const current = trace.rows.find((row) => row.spanId === selected) ?? null;

  return (
    <div className="grid gap-4 xl:grid-cols-[minmax(0,1fr)_24rem]">
      <div className="min-w-0 overflow-hidden rounded-lg border border-line bg-surface shadow-sm">
        <div className="flex items-center justify-between border-b border-line bg-surface-2 px-3 py-1.5 text-xs text-muted">
          <span>
            {trace.rows.length} spans · {trace.projects.length} {trace.projects.length === 1 ? "project" : "projects"}
          </span>
          <span className="flex gap-3">
            {trace.projects.map((slug) => (
              <span key={slug} className="inline-flex items-center gap-1">
                <span aria-hidden className="inline-block h-2 w-2 rounded-sm" style={{ background: colorOf.get(slug) }} />
                {slug}
              </span>
            ))}
            <span className="tabular-nums">{formatDuration(total)}</span>
          </span>
        </div>
        <ul role="tree" aria-label="Spans of the trace" data-testid="trace-waterfall" className="text-[13px]">
          {visible.map((row) => {
            const left = ((row.start - trace.start) / total) * 100;
            const width = Math.max(((row.end - row.start) / total) * 100, 0.3);
            const open = !collapsed.has(row.spanId);
            return (
              <li
                key={`${row.projectSlug}:${row.spanId}`}
                role="treeitem"
                aria-level={row.depth + 1}
                aria-expanded={row.descendants > 0 ? open : undefined}
                aria-selected={row.spanId === selected}
                data-testid="trace-span"
                data-span-id={row.spanId}
                data-parent-span-id={row.parentSpanId ?? ""}
                data-depth={row.depth}
                data-project={row.projectSlug}
                data-errors={row.errors.length}
                className={`grid grid-cols-[minmax(0,22rem)_minmax(0,1fr)] items-center border-b border-line last:border-b-0 ${row.spanId === selected ? "bg-accent-soft" : "hover:bg-surface-2"}`}
              >
                <div className="flex min-w-0 items-center gap-1 py-1 pr-2" style={{ paddingLeft: `${0.5 + row.depth * 0.9}rem` }}>
                  {row.descendants > 0 ? (
                    <button
                      type="button"
                      onClick={() => toggle(row.spanId)}
                      className="w-8 shrink-0 rounded border border-line text-[11px] tabular-nums text-muted hover:bg-surface-2"
                      aria-label={`${open ? "Collapse" : "Expand"} ${row.descendants} spans under ${row.op}`}
                      data-testid="trace-toggle"
                    >
                      {open ? "−" : "+"}
                      {row.descendants}
                    </button>
                  ) : (
                    <span className="w-8 shrink-0" />
                  )}
                  <button type="button" onClick={() => setSelected(row.spanId)} className="flex min-w-0 items-center gap-1.5 text-left" data-testid="trace-span-label">
                    <span aria-hidden className="inline-block h-2 w-2 shrink-0 rounded-sm" style={{ background: colorOf.get(row.projectSlug) }} />
                    <span className="shrink-0 font-semibold">{row.op}</span>
                    <span className="truncate text-muted" title={row.name}>
                      {row.name}
                    </span>
                    {row.orphan ? (
                      <span className="shrink-0 rounded bg-amber-100 px-1 text-[10px] text-amber-800 dark:bg-amber-500/20 dark:text-amber-300" title="The parent span was not received" data-testid="orphan-span">
                        orphan
                      </span>
                    ) : null}
                    {row.errors.length > 0 ? (
                      <span className="shrink-0 rounded bg-red-100 px-1 text-[10px] font-semibold text-red-800 dark:bg-red-500/20 dark:text-red-300" data-testid="span-error-marker">
                        {row.errors.length} {row.errors.length === 1 ? "error" : "errors"}
                      </span>
                    ) : null}
                  </button>
                </div>
                <div className="relative h-6 pr-2" aria-hidden>
                  <div
                    className={`absolute top-1.5 h-3 rounded-sm ${failed(row.status) ? "ring-2 ring-red-500" : ""}`}
                    style={{ left: `${left}%`, width: `${width}%`, background: colorOf.get(row.projectSlug) }}
                  />
                  <span className="absolute top-1 text-[11px] text-subtle tabular-nums" style={left + width > 80 ? { right: `${100 - left + 0.5}%` } : { left: `${left + width + 0.5}%` }}>
                    {formatDuration(row.end - row.start)}
                  </span>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
      <aside className="min-w-0" aria-label="Span details">
        {current ? <SpanDetails row={current} traceStart={trace.start} organizationSlug={organizationSlug} /> : null}
      </aside>
    </div>
  );
}

function SpanDetails({ row, traceStart, organizationSlug }: { row: TraceRow; traceStart: number; organizationSlug: string }) {
  const fields: [string, string][] = [
    ["op", row.op],
    ["description", row.name],
    ["project", row.projectSlug],
    ["status", row.status ?? "—"],
    ["duration", formatDuration(row.end - row.start)],
    ["starts at", `+${formatDuration(row.start - traceStart)}`],
    ["span id", row.spanId],
    ["parent span id", row.parentSpanId ? `${row.parentSpanId}${row.orphan ? " (not received)" : ""}` : "—"],
  ];
  if (row.segmentName) fields.push(["transaction", row.segmentName]);
  if (row.release) fields.push(["release", row.release]);
  if (row.environment) fields.push(["environment", row.environment]);
  if (row.sdkName) fields.push(["sdk", row.sdkName]);
  return (
    <div className="space-y-3 rounded-lg border border-line bg-surface p-3 shadow-sm" data-testid="span-details">
      <h2 className="text-sm font-semibold [overflow-wrap:anywhere]">
        {row.op} <span className="font-normal text-muted">{row.name}</span>
      </h2>
      {row.errors.length > 0 ? (
        <ul className="space-y-1" data-testid="span-errors">
          {row.errors.map((error) => (
            <li key={error.eventId} className="rounded border border-red-300 bg-red-50 px-2 py-1 text-xs dark:border-red-500/40 dark:bg-red-500/10">
              <Link href={`/organizations/${organizationSlug}/issues/${error.issueId}/events/${error.eventId}`} className="font-medium text-accent hover:underline">
                {error.title}
              </Link>
              <span className="ml-1 text-subtle">{error.shortId}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <DetailTable rows={fields} />
      {row.measurements.length > 0 ? (
        <>
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Measurements</h3>
          <DetailTable rows={row.measurements.map(([name, value]) => [name, String(Math.round(value * 1000) / 1000)])} />
        </>
      ) : null}
      {row.attributes.length > 0 ? (
        <>
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">Attributes</h3>
          <DetailTable rows={row.attributes} />
        </>
      ) : null}
    </div>
  );
}

function DetailTable({ rows }: { rows: [string, string][] }) {
  return (
    <table className="w-full table-fixed text-xs">
      <tbody>
        {rows.map(([key, value]) => (
          <tr key={key} className="border-t border-line first:border-t-0">
            <th scope="row" className="w-2/5 py-1 pr-2 text-left align-top font-medium break-words text-muted">
              {key}
            </th>
            <td className="py-1 align-top font-mono [overflow-wrap:anywhere] whitespace-pre-wrap">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
