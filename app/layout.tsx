import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { headers } from "next/headers";
import { MonitoringInit } from "@/components/monitoring/monitoring-init";
import { readThemeChoice } from "@/components/theme";
import { peekRuntime } from "@/src/runtime";
import "./globals.css";

const ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="11" fill="#6a3fd1"/>' +
  '<circle cx="12" cy="12" r="6" fill="none" stroke="#fff" stroke-width="2"/><circle cx="12" cy="12" r="2" fill="#fff"/></svg>';

export const metadata: Metadata = {
  title: { default: "Periscope", template: "%s · Periscope" },
  description: "Self-hosted error monitoring for Sentry SDKs",
  // Inline so the icon needs no file and no extra route.
  icons: { icon: `data:image/svg+xml,${encodeURIComponent(ICON)}` },
};

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#1b1a21" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const theme = await readThemeChoice();
  const runtime = peekRuntime();
  // Test builds only: lets the tests make the root layout itself fail, which only global-error.tsx catches.
  if (runtime?.config.testHooks && (await headers()).get("x-periscope-test-global-error") === "1") {
    throw new Error("periscope test root layout exception");
  }
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme} suppressHydrationWarning>
      <body>
        <MonitoringInit setup={runtime?.monitoring ?? null} />
        {children}
      </body>
    </html>
  );
}
