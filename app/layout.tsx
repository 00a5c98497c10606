import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { readThemeChoice } from "@/components/theme";
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
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme} suppressHydrationWarning>
      <body>{children}</body>
    </html>
  );
}
