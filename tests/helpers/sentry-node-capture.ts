/**
 * Real `@sentry/node` output for unit tests: the SDK runs in-process with a transport that records
 * envelopes instead of sending them. Each envelope goes through JSON (as the SDK's serializer does)
 * so tests see exactly the wire payload and the envelope header (`event_id`, `sent_at`).
 *
 * The SDK is a process-wide singleton: call `initSentryCapture` once per test file.
 */
import * as Sentry from "@sentry/node";

export interface CapturedEvent {
  header: { event_id?: string; sent_at?: string };
  payload: Record<string, unknown>;
}

type Envelope = [CapturedEvent["header"], [{ type: string }, Record<string, unknown>][]];

const envelopes: Envelope[] = [];

export function initSentryCapture(options: { release?: string; environment?: string } = {}): void {
  Sentry.init({
    dsn: "http://0123456789abcdef0123456789abcdef@127.0.0.1:1/1",
    ...options,
    // No default integrations: no process handlers or dedupe inside the test runner. These three
    // give real cause chains, source context and os/runtime contexts.
    defaultIntegrations: false,
    integrations: [Sentry.linkedErrorsIntegration(), Sentry.contextLinesIntegration(), Sentry.nodeContextIntegration()],
    transport: () => ({
      send: async (envelope) => {
        envelopes.push(JSON.parse(JSON.stringify(envelope)) as Envelope);
        return {};
      },
      flush: async () => true,
    }),
  });
}

/** Runs `capture` in its own scope and returns the event items it produced, in order. */
export async function captureEvents(capture: (scope: Sentry.Scope) => void): Promise<CapturedEvent[]> {
  const start = envelopes.length;
  Sentry.withScope(capture);
  await Sentry.flush();
  return envelopes
    .slice(start)
    .flatMap(([header, items]) => items.filter(([item]) => item.type === "event").map(([, payload]) => ({ header, payload })));
}

/** Exactly one event, or a failure naming how many there were. */
export async function captureEvent(capture: (scope: Sentry.Scope) => void): Promise<CapturedEvent> {
  const events = await captureEvents(capture);
  const [event] = events;
  if (events.length !== 1 || !event) throw new Error(`expected one event, got ${events.length}`);
  return event;
}

export { Sentry };
