import Link from "next/link";
import { CopyButton } from "../copy-button";

/** How to make releases (and upload source maps) with sentry-cli against this server: README, "Releases and source maps". */
export function SentryCliGuide({ publicUrl, organizationSlug, projectSlug }: { publicUrl: string; organizationSlug: string; projectSlug: string }) {
  const script = [
    `export SENTRY_URL=${publicUrl}`,
    `export SENTRY_AUTH_TOKEN=<a token with project:releases>`,
    `export SENTRY_ORG=${organizationSlug}`,
    `export SENTRY_PROJECT=${projectSlug}`,
    `VERSION=$(npx sentry-cli releases propose-version)`,
    ``,
    `npx sentry-cli releases new "$VERSION"`,
    `npx sentry-cli releases set-commits "$VERSION" --local`,
    `npx sentry-cli sourcemaps inject ./dist`,
    `npx sentry-cli sourcemaps upload --release "$VERSION" ./dist`,
    `npx sentry-cli releases finalize "$VERSION"`,
    `npx sentry-cli deploys new --release "$VERSION" -e production`,
  ].join("\n");
  return (
    <div className="space-y-3 text-left" data-testid="sentry-cli-guide">
      <p>
        Releases appear here when events, sessions or transactions carry a <code className="font-mono">release</code>, or when your CI
        creates them with <a href="https://docs.sentry.io/cli/" className="text-accent hover:underline">sentry-cli</a>, which works against
        Periscope as it does against Sentry. Create a token with the <code className="font-mono">project:releases</code> scope under{" "}
        <Link href="/settings/account#tokens" className="text-accent hover:underline">
          API tokens
        </Link>
        , then run:
      </p>
      <div className="relative">
        <pre className="overflow-x-auto rounded-md border border-line bg-surface-2 p-3 font-mono text-xs leading-relaxed text-fg">{script}</pre>
        <div className="absolute top-2 right-2">
          <CopyButton text={script} />
        </div>
      </div>
    </div>
  );
}
