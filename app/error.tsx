"use client";

import { useEffect } from "react";
import { ApplicationError } from "@/components/fallback/application-error";
import { captureBoundaryError } from "@/components/monitoring/monitoring-init";

/** Segment error boundary: any uncaught exception below the root layout ends here. */
export default function Error({ error }: { error: Error & { digest?: string }; reset: () => void }) {
  useEffect(() => captureBoundaryError(error), [error]);
  return <ApplicationError digest={error.digest} />;
}
