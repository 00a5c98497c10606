/**
 * A small page on its own origin that runs the real `@sentry/browser` SDK, for browser tests: the
 * test's entry script bundled by esbuild (it imports "@sentry/browser" from node_modules), served
 * with a page holding a "Buy" button.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..", "..");

/** Bundles `contents` (an ES module) into one browser script. */
export async function bundleBrowserApp(contents: string, sourcefile: string): Promise<string> {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile, loader: "js" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error("esbuild produced no output");
  return output.text;
}

export interface BrowserApp {
  server: Server;
  url: string;
}

/** Serves the bundle at /app.js and, at `pagePath` (any query), a page loading it with a "Buy" button. */
export async function serveBrowserApp(bundle: string, pagePath = "/", title = ""): Promise<BrowserApp> {
  const page = `<!doctype html>${title ? `<title>${title}</title>` : ""}<script src="/app.js" defer></script><button id="buy">Buy</button>`;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/app.js") res.writeHead(200, { "Content-Type": "text/javascript" }).end(bundle);
    else if (url.pathname === pagePath) res.writeHead(200, { "Content-Type": "text/html" }).end(page);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
