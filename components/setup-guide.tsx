import { CopyButton } from "./copy-button";
import { CodeBlock, SnippetTabs } from "./snippet-tabs";
import { setupSnippets } from "./snippets";

/** One DSN, shown in full with a copy button. */
export function DsnField({ dsn, label = "DSN" }: { dsn: string; label?: string }) {
  return (
    <div className="flex items-center gap-2 rounded-md border border-line bg-code py-1.5 pr-1.5 pl-3">
      <span className="sr-only">{label}</span>
      <code className="min-w-0 flex-1 font-mono text-xs [overflow-wrap:anywhere]" data-testid="dsn">
        {dsn}
      </code>
      <CopyButton text={dsn} label="Copy DSN" />
    </div>
  );
}

/** DSN, SDK snippets and a curl line that sends a first event without installing anything. */
export function SetupGuide({ dsn, storeUrl, showDsn = true }: { dsn: string; storeUrl: string; showDsn?: boolean }) {
  const curl = `curl -X POST '${storeUrl}' \\
  -H 'Content-Type: application/json' \\
  -d '{"message":"Hello from Periscope","level":"info"}'`;
  return (
    <div className="space-y-4">
      {showDsn ? (
        <div>
          <h3 className="mb-1.5 text-sm font-semibold">1. Your DSN</h3>
          <DsnField dsn={dsn} />
        </div>
      ) : null}
      <div>
        <h3 className="mb-1.5 text-sm font-semibold">{showDsn ? "2. Set up the SDK" : "Install and configure"}</h3>
        <SnippetTabs snippets={setupSnippets(dsn)} />
      </div>
      <div>
        <h3 className="mb-1.5 text-sm font-semibold">Or send a test event now</h3>
        <CodeBlock label="With curl, no SDK needed" code={curl} />
      </div>
    </div>
  );
}

/** The legacy store endpoint with the key in the query: the one URL curl can post an event to. */
export function storeUrlFor(publicUrl: string, projectId: string, publicKey: string): string {
  return `${publicUrl.replace(/\/+$/, "")}/api/${projectId}/store/?sentry_key=${publicKey}`;
}
