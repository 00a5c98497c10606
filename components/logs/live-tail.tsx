"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** How often the live tail asks for the newest lines. */
const POLL_MS = 2_000;

/**
 * The log explorer's live tail: while on, the page (a server component, newest first) is fetched
 * again every POLL_MS, so new lines appear at the top. Polling keeps it to plain requests.
 */
export function LiveTail({ on }: { on: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => router.refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [on, router]);
  return null;
}
