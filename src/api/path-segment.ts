/** A dynamic path segment as sent (`server%20name`) → its text; one that does not decode is used as it is. */
export function pathSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
