import { existsSync } from "node:fs";

/** Debian's Chromium, the only browser this project drives; null when it is not installed. */
export function chromiumPath(): string | null {
  for (const candidate of ["/usr/bin/chromium", "/usr/bin/chromium-browser"]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Flags that keep headless Chromium off the (closed) network and working as root in containers. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
