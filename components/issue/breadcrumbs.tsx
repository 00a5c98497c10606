import type { Breadcrumb, Level } from "@/src/processing/types";
import { formatAbsolute, formatClock, formatValue } from "../format";

const levelText: Record<Level, string> = {
  fatal: "text-red-700 dark:text-red-400",
  error: "text-red-600 dark:text-red-400",
  warning: "text-amber-700 dark:text-amber-400",
  info: "text-sky-700 dark:text-sky-400",
  debug: "text-subtle",
};

/** Newest first, as Sentry lists them; times are UTC clock times (they are read against each other). */
export function Breadcrumbs({ breadcrumbs }: { breadcrumbs: Breadcrumb[] }) {
  const newestFirst = [...breadcrumbs].reverse();
  return (
    <div className="overflow-x-auto rounded-lg border border-line bg-surface">
      <table className="w-full min-w-[36rem] text-left text-xs">
        <thead className="bg-surface-2 text-[11px] tracking-wide text-muted uppercase">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              Type
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Description
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Level
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Time (UTC)
            </th>
          </tr>
        </thead>
        <tbody>
          {newestFirst.map((crumb, index) => (
            <tr key={index} className="border-t border-line align-top">
              <td className="px-3 py-1.5 whitespace-nowrap">
                <span className="font-medium">{crumb.category ?? crumb.type ?? "default"}</span>
                {crumb.category && crumb.type && crumb.type !== "default" ? <span className="block text-subtle">{crumb.type}</span> : null}
              </td>
              <td className="px-3 py-1.5 font-mono [overflow-wrap:anywhere]">
                {describe(crumb)}
              </td>
              <td className={`px-3 py-1.5 whitespace-nowrap ${levelText[crumb.level ?? "info"]}`}>{crumb.level ?? "info"}</td>
              <td className="px-3 py-1.5 text-right font-mono whitespace-nowrap text-muted" title={formatAbsolute(crumb.timestamp * 1000)}>
                {formatClock(crumb.timestamp * 1000)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The message, else the parts of `data` Sentry's SDKs put there (http requests, navigations). */
function describe(crumb: Breadcrumb): string {
  const data = crumb.data ?? {};
  if (crumb.message) return crumb.message;
  if (typeof data.url === "string") {
    const method = typeof data.method === "string" ? `${data.method} ` : "";
    const status = data.status_code !== undefined ? ` [${formatValue(data.status_code)}]` : "";
    return `${method}${data.url}${status}`;
  }
  if (typeof data.from === "string" || typeof data.to === "string") return `${formatValue(data.from)} → ${formatValue(data.to)}`;
  return Object.keys(data).length > 0 ? JSON.stringify(data) : "";
}
