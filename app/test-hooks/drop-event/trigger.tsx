"use client";

import * as Sentry from "@sentry/react";
import { TEST_DROP_MARKER } from "@/src/monitoring/test-drop-marker";

export function DropEventTrigger() {
  return (
    <button type="button" onClick={() => Sentry.captureMessage(`${TEST_DROP_MARKER}: dropped by beforeSend on purpose`)}>
      Capture an event that beforeSend drops
    </button>
  );
}
