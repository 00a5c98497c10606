/**
 * The search text for "issues with this tag value" (the issue page's tag links): quoted when the
 * value has spaces or characters the grammar reads, and `tags[key]` for keys a bare key cannot be.
 */
export function tagFilterQuery(key: string, value: string): string {
  const bareKey = /^[A-Za-z_][\w.-]*$/.test(key) ? key : `tags[${key}]`;
  // A literal `*` is `\*` (a bare one would be a wildcard).
  const starred = value.replace(/\*/g, "\\*");
  const bareValue = /^[^\s"()[\],!]+$/.test(starred) ? starred : `"${starred.replace(/"/g, '\\"')}"`;
  return `${bareKey}:${bareValue}`;
}
