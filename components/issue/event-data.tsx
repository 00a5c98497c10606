import Link from "next/link";
import type { ReactNode } from "react";
import type { EventRequest, EventUser, LogEntry, NormalizedEvent, SdkInfo } from "@/src/processing/types";
import type { ScrubbedValue } from "@/src/processing/scrub/meta";
import { formatValue } from "../format";
import { Card, KeyValueTable } from "../ui";
import { FilteredText } from "./filtered";

export function MessageBlock({ logentry }: { logentry: LogEntry }) {
  return (
    <Card className="px-4 py-3">
      <p className="font-mono text-[13px] [overflow-wrap:anywhere] whitespace-pre-wrap" data-testid="event-message">
        <FilteredText text={logentry.formatted} />
      </p>
      {logentry.params && logentry.params.length > 0 ? (
        <p className="mt-2 text-xs text-subtle">
          Template: <code className="font-mono">{logentry.message}</code>
        </p>
      ) : null}
    </Card>
  );
}

/** The event's own tags; each links to the issues that share it. */
export function EventTags({ tags, filterHref }: { tags: [string, string][]; filterHref: (key: string, value: string) => string }) {
  return (
    <ul className="flex flex-wrap gap-1.5" data-testid="event-tags">
      {tags.map(([key, value]) => (
        <li key={`${key}=${value}`}>
          <Link
            href={filterHref(key, value)}
            className="inline-flex max-w-full overflow-hidden rounded-md border border-line text-xs hover:border-line-strong"
            title={`Issues with ${key}:${value}`}
          >
            <span className="bg-surface-2 px-1.5 py-0.5 text-muted">{key}</span>
            <span className="truncate bg-surface px-1.5 py-0.5 font-mono">{value}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

const contextTitles: Record<string, string> = {
  browser: "Browser",
  os: "Operating system",
  client_os: "Client OS",
  runtime: "Runtime",
  device: "Device",
  app: "App",
  trace: "Trace",
  culture: "Culture",
  cloud_resource: "Cloud resource",
  response: "Response",
  gpu: "GPU",
};

/** browser / os / runtime / device / trace ... one card each, their fields as a table. */
export function Contexts({ contexts, traceHref }: { contexts: NormalizedEvent["contexts"]; traceHref?: (traceId: string) => string }) {
  const entries = Object.entries(contexts).filter(([, value]) => Object.keys(value).length > 0);
  return (
    <div className="grid gap-3 md:grid-cols-2">
      {entries.map(([key, value]) => (
        <Card key={key} className="overflow-hidden">
          <h3 className="border-b border-line bg-surface-2 px-3 py-1.5 text-xs font-semibold">
            {(Object.hasOwn(contextTitles, key) ? contextTitles[key] : undefined) ?? key}
          </h3>
          <KeyValueTable rows={Object.entries(value).filter(([field]) => field !== "type").map(([field, v]) => [field, contextValue(key, field, v, traceHref)])} />
        </Card>
      ))}
    </div>
  );
}

/** A context field's value; the trace context's trace id opens the trace view. */
function contextValue(context: string, field: string, value: unknown, traceHref: ((traceId: string) => string) | undefined): ReactNode {
  if (context === "trace" && field === "trace_id" && traceHref && typeof value === "string" && /^[0-9a-f]{32}$/.test(value)) {
    return (
      <Link href={traceHref(value)} className="text-accent hover:underline" data-testid="context-trace-link">
        {value}
      </Link>
    );
  }
  return formatValue(value);
}

export function UserInfo({ user }: { user: EventUser }) {
  const rows: [string, string][] = [];
  for (const field of ["id", "email", "username", "name", "ip_address"] as const) {
    const value = user[field];
    if (value) rows.push([field, value]);
  }
  if (user.geo) rows.push(["geo", formatValue(user.geo)]);
  for (const [key, value] of Object.entries(user.data ?? {})) rows.push([key, formatValue(value)]);
  return (
    <Card className="overflow-hidden">
      <KeyValueTable rows={rows} />
    </Card>
  );
}

/** Method and URL, then query, headers, cookies, body and environment as tables. */
export function RequestInfo({ request }: { request: EventRequest }) {
  const query = request.query_string ? Array.from(new URLSearchParams(request.query_string)) : [];
  return (
    <Card className="overflow-hidden">
      <p className="border-b border-line px-3 py-2 font-mono text-xs [overflow-wrap:anywhere]">
        {request.method ? <span className="mr-2 font-semibold">{request.method}</span> : null}
        {request.url ?? <span className="text-subtle">no URL</span>}
      </p>
      {query.length > 0 ? <RequestPart title="Query" rows={query} /> : null}
      {request.headers && request.headers.length > 0 ? <RequestPart title="Headers" rows={request.headers} /> : null}
      {request.cookies ? <RequestPart title="Cookies" rows={[["cookie", request.cookies]]} /> : null}
      {request.data !== undefined ? (
        <div className="border-t border-line">
          <h3 className="px-3 pt-2 text-[11px] font-semibold tracking-wide text-subtle uppercase">Body</h3>
          <pre className="overflow-x-auto px-3 py-2 font-mono text-xs">
            <FilteredText text={typeof request.data === "string" ? request.data : JSON.stringify(request.data, null, 2)} />
          </pre>
        </div>
      ) : null}
      {request.env ? <RequestPart title="Environment" rows={Object.entries(request.env).map(([k, v]) => [k, formatValue(v)])} /> : null}
    </Card>
  );
}

function RequestPart({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <div className="border-t border-line first:border-t-0">
      <h3 className="px-3 pt-2 text-[11px] font-semibold tracking-wide text-subtle uppercase">{title}</h3>
      <KeyValueTable rows={rows} />
    </div>
  );
}

export function SdkBlock({ sdk }: { sdk: SdkInfo }) {
  const rows: [string, string][] = [
    ["name", sdk.name],
    ["version", sdk.version],
  ];
  if (sdk.integrations && sdk.integrations.length > 0) rows.push(["integrations", sdk.integrations.join(", ")]);
  for (const pkg of sdk.packages ?? []) rows.push(["package", `${pkg.name}@${pkg.version}`]);
  return (
    <Card className="overflow-hidden">
      <KeyValueTable rows={rows} />
    </Card>
  );
}

export function ExtraData({ extra }: { extra: Record<string, unknown> }) {
  return (
    <Card className="overflow-hidden">
      <KeyValueTable rows={Object.entries(extra).map(([key, value]) => [key, formatValue(value)])} />
    </Card>
  );
}

/** Where data scrubbing filtered values before the event was stored (the event's `_meta`). */
export function ScrubbingNote({ values }: { values: ScrubbedValue[] }) {
  return (
    <Card className="overflow-hidden" >
      <p className="border-b border-line px-3 py-2 text-sm text-muted" data-testid="scrubbing-note">
        {values.length.toLocaleString("en-US")} {values.length === 1 ? "value was" : "values were"} filtered by data scrubbing before the event was stored.
      </p>
      <KeyValueTable rows={values.map((value): [string, string] => [value.path, `${value.partial ? "part " : ""}${value.action} by ${value.rules.join(", ")}`])} />
    </Card>
  );
}

/** The stored (normalised) payload, folded away by default. */
export function RawJson({ event }: { event: NormalizedEvent }) {
  return (
    <details className="group rounded-lg border border-line bg-surface">
      <summary className="flex items-center justify-between px-4 py-2 text-sm font-medium">
        <span>Raw JSON</span>
        <span className="text-xs text-subtle group-open:hidden">Show</span>
        <span className="hidden text-xs text-subtle group-open:inline">Hide</span>
      </summary>
      <pre className="max-h-[32rem] overflow-auto border-t border-line bg-code p-4 font-mono text-xs leading-5">
        {JSON.stringify(event, null, 2)}
      </pre>
    </details>
  );
}
