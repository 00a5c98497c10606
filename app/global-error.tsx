"use client";

import { useEffect } from "react";
import { ApplicationError } from "@/components/fallback/application-error";
import { captureBoundaryError } from "@/components/monitoring/monitoring-init";

/** Replaces the root layout when the layout itself fails, so it renders its own document. */
export default function GlobalError({ error }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => captureBoundaryError(error), [error]);
  return (
    <html lang="en">
      <body style={{ margin: 0 }}>
        <ApplicationError digest={error.digest} />
      </body>
    </html>
  );
}
