import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { readThemeChoice } from "@/components/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Periscope", template: "%s · Periscope" },
  description: "Self-hosted error monitoring for Sentry SDKs",
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
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme} suppressHydrationWarning>
      <body>{children}</body>
    </html>
  );
}
