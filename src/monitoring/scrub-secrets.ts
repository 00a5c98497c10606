/**
 * Invite links carry their secret in the path (/invite/<64 hex>), and the UI's own monitoring
 * records page URLs (transactions, breadcrumbs, request data, span attributes). Self-monitoring data
 * is readable by the default organisation's owners and admins, who must not learn invite links of
 * other organisations, so the secret is masked before anything is stored or forwarded.
 *
 * The mask has the secret's length: envelope items may declare their length in bytes.
 */
const INVITE_SECRET = /(\/invite\/)[0-9a-f]{64}/g;
const MASK = "[Filtered]".padEnd(64, "*");

export function scrubInviteSecrets(text: string): string {
  return text.replace(INVITE_SECRET, `$1${MASK}`);
}

/** The same for a raw envelope; the buffer is returned as is when it holds no invite path. */
export function scrubInviteSecretsInEnvelope(body: Buffer): Buffer {
  if (body.indexOf("/invite/") === -1) return body;
  const text = body.toString("latin1");
  const scrubbed = scrubInviteSecrets(text);
  return scrubbed === text ? body : Buffer.from(scrubbed, "latin1");
}
