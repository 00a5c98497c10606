const EVENT_ID = /^[0-9a-f]{32}$/;

/** Event ids are accepted with or without dashes, any case, as Sentry does. */
export function normalizeEventId(raw: string): string | null {
  const id = raw.replace(/-/g, "").toLowerCase();
  return EVENT_ID.test(id) ? id : null;
}
