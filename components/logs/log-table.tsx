import Link from "next/link";
import type { LogLevel, Project, StoredLog } from "@/src/model";
import { EmptyState } from "../ui";

const LEVEL_STYLES: Record<LogLevel, string> = {
  fatal: "bg-red-700 text-white dark:bg-red-500",
  error: "bg-red-100 text-red-800 dark:bg-red-500/15 dark:text-red-300",
  warn: "bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300",
  info: "bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-300",
  debug: "bg-zinc-100 text-zinc-700 dark:bg-zinc-500/15 dark:text-zinc-300",
  trace: "bg-zinc-50 text-zinc-500 dark:bg-zinc-500/10 dark:text-zinc-400",
};

/** `2026-11-27 12:00:00.123456789` (UTC), from the exact nanoseconds. */
function preciseTime(log: StoredLog): string {
  const iso = new Date(Math.floor(log.timestamp)).toISOString();
  const nanos = log.timestampNs.padStart(10, "0").slice(-9);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${nanos}`;
}

const attributeText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * Log lines newest first: time, level, body, project; each line opens to its attributes and ids.
 * The trace id links to the trace view (the performance section's /traces/{traceId}).
 */
export function LogTable({ logs, projects, organizationSlug }: { logs: StoredLog[]; projects: Project[]; organizationSlug: string }) {
  if (logs.length === 0) return <EmptyState title="No log lines match">Lines appear here as SDKs send them (enableLogs in the SDK options).</EmptyState>;
  const names = new Map(projects.map((project) => [project.id, project.name]));
  return (
    <ol className="divide-y divide-line font-mono text-xs" data-testid="log-lines">
      {logs.map((log) => (
        <li key={log.id} data-testid="log-line" data-level={log.level}>
          <details>
            <summary className="flex cursor-pointer items-baseline gap-3 px-4 py-1.5 hover:bg-surface-2">
              <time className="shrink-0 text-muted tabular-nums" dateTime={new Date(log.timestamp).toISOString()}>
                {preciseTime(log)}
              </time>
              <span className={`w-12 shrink-0 rounded px-1 text-center text-[10px] font-semibold uppercase ${LEVEL_STYLES[log.level]}`}>{log.level}</span>
              <span className="min-w-0 flex-1 break-words whitespace-pre-wrap" data-testid="log-body">{log.body}</span>
              <span className="shrink-0 font-sans text-subtle">{names.get(log.projectId) ?? log.projectId}</span>
            </summary>
            <dl className="grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-4 gap-y-0.5 bg-surface-2 px-8 py-2" data-testid="log-attributes">
              <dt className="text-muted">severity_number</dt>
              <dd>{log.severityNumber}</dd>
              {log.traceId ? (
                <>
                  <dt className="text-muted">trace</dt>
                  <dd>
                    <Link href={`/organizations/${organizationSlug}/traces/${log.traceId}`} className="text-accent hover:underline" data-testid="log-trace-link">
                      {log.traceId}
                    </Link>
                  </dd>
                </>
              ) : null}
              {log.spanId ? (
                <>
                  <dt className="text-muted">span</dt>
                  <dd>{log.spanId}</dd>
                </>
              ) : null}
              {Object.entries(log.attributes).map(([key, attribute]) => (
                <div key={key} className="contents" data-testid="log-attribute">
                  <dt className="text-muted">{key}</dt>
                  <dd className="break-all">{attributeText(attribute.value)}</dd>
                </div>
              ))}
            </dl>
          </details>
        </li>
      ))}
    </ol>
  );
}
