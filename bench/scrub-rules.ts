/**
 * `npm run bench -- --scrub-rules 0,20`: advanced data scrubbing rules (Relay PII config) put on the
 * benchmark project before any traffic, so one run measures ingest with N rules against none.
 * Nineteen are secret-shaped patterns on every string; one is `(a+)+$`, which backtracks
 * exponentially in JavaScript's engine and runs in linear time on RE2 (src/processing/scrub).
 */
import { loadConfig } from "../src/config";
import { DEFAULT_PRIVACY } from "../src/model";
import { createStorage } from "../src/storage";

const PATTERNS = [
  "sk_live_[0-9a-zA-Z]{24}",
  "rk_live_[0-9a-zA-Z]{24}",
  "AKIA[0-9A-Z]{16}",
  "ghp_[A-Za-z0-9]{36}",
  "gho_[A-Za-z0-9]{36}",
  "xox[baprs]-[0-9A-Za-z-]{10,48}",
  "AIza[0-9A-Za-z_-]{35}",
  "SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}",
  "sq0atp-[0-9A-Za-z_-]{22}",
  "glpat-[0-9A-Za-z_-]{20}",
  "npm_[A-Za-z0-9]{36}",
  "shpat_[a-fA-F0-9]{32}",
  "[0-9]{3}-[0-9]{3}-[0-9]{4}",
  "(?i)internal-user-[0-9]+",
  "eyJ[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}\\.[A-Za-z0-9_-]{10,}",
  "[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}",
  "(?i)order-[0-9a-f]{16}",
  "pk_test_[0-9a-zA-Z]{24}",
  "dop_v1_[a-f0-9]{64}",
  "(a+)+$",
];

export function piiConfigWith(count: number): string {
  const chosen = PATTERNS.slice(PATTERNS.length - count);
  const rules = Object.fromEntries(chosen.map((pattern, index) => [`rule${index}`, { type: "pattern", pattern, redaction: { method: "replace", text: "[rule]" } }]));
  return JSON.stringify({ rules, applications: { $string: Object.keys(rules) } });
}

export const MAX_SCRUB_RULES = PATTERNS.length;

/** Writes the rules into the server's database (before its first event, so its cache has nothing to forget). */
export async function putScrubRules(env: Record<string, string>, projectId: string, count: number): Promise<void> {
  if (count === 0) return;
  const storage = await createStorage(loadConfig({ ...process.env, ...env }));
  try {
    await storage.privacy.setForProject(projectId, Object.assign({}, DEFAULT_PRIVACY, { sensitiveFields: [], safeFields: [], relayPiiConfig: piiConfigWith(count) }));
  } finally {
    await storage.close();
  }
}
