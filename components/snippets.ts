/** Copy-paste SDK setup for the platforms most projects start with, filled with a real DSN. */
export interface SetupSnippet {
  id: "browser" | "node" | "python" | "nextjs";
  label: string;
  install: string;
  code: string;
  /** Where the code goes, shown above it. */
  file: string;
}

export function setupSnippets(dsn: string): SetupSnippet[] {
  const quoted = JSON.stringify(dsn);
  return [
    {
      id: "browser",
      label: "Browser JavaScript",
      install: "npm install @sentry/browser",
      file: "src/main.js (before any other code)",
      code: `import * as Sentry from "@sentry/browser";

Sentry.init({
  dsn: ${quoted},
  release: "my-app@1.0.0",
  environment: "production",
});`,
    },
    {
      id: "node",
      label: "Node.js",
      install: "npm install @sentry/node",
      file: "instrument.mjs (load it first: node --import ./instrument.mjs app.mjs)",
      code: `import * as Sentry from "@sentry/node";

Sentry.init({
  dsn: ${quoted},
  release: "my-service@1.0.0",
  environment: "production",
});`,
    },
    {
      id: "python",
      label: "Python",
      install: "pip install sentry-sdk",
      file: "at the start of your program",
      code: `import sentry_sdk

sentry_sdk.init(
    dsn=${quoted},
    release="my-service@1.0.0",
    environment="production",
)`,
    },
    {
      id: "nextjs",
      label: "Next.js",
      install: "npm install @sentry/nextjs",
      file: "instrumentation-client.ts and sentry.server.config.ts",
      code: `import * as Sentry from "@sentry/nextjs";

Sentry.init({
  dsn: ${quoted},
  environment: process.env.NODE_ENV,
});`,
    },
  ];
}
