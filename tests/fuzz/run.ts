/**
 * Sends fuzz cases to a running Periscope with bounded concurrency and tallies the answers.
 * Used by the short run in `npm test` (tests/integration/fuzz.test.ts) and the long one (`npm run fuzz`).
 */
import { fuzzCases, type FuzzCase } from "./cases";

export interface FuzzReport {
  sent: number;
  /** kind → status → count. */
  statuses: Record<string, Record<string, number>>;
  /** Every answer ≥ 500, or a request the server dropped (status 0). */
  failures: { kind: string; status: number; detail: string }[];
  /** Event ids of valid envelopes the server acknowledged with 200. */
  acknowledged: string[];
  /** Valid envelopes that did not get a 200. */
  refusedValid: { status: number; detail: string }[];
}

export async function runFuzz(options: {
  baseUrl: string;
  projectId: string;
  publicKey: string;
  seed: number;
  count: number;
  concurrency: number;
}): Promise<FuzzReport> {
  const url = `${options.baseUrl}/api/${options.projectId}/envelope/?sentry_key=${options.publicKey}&sentry_version=7`;
  const report: FuzzReport = { sent: 0, statuses: {}, failures: [], acknowledged: [], refusedValid: [] };
  const cases = fuzzCases(options.seed, options.count, options.publicKey);

  const send = async (fuzzCase: FuzzCase) => {
    let status = 0;
    let detail = "";
    try {
      const response = await fetch(url, { method: "POST", body: new Uint8Array(fuzzCase.body), headers: fuzzCase.headers });
      status = response.status;
      detail = await response.text();
    } catch (error) {
      detail = String(error);
    }
    report.sent++;
    const byStatus = (report.statuses[fuzzCase.kind] ??= {});
    byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
    if (status === 0 || status >= 500) report.failures.push({ kind: fuzzCase.kind, status, detail: detail.slice(0, 300) });
    if (fuzzCase.eventId) {
      if (status === 200) report.acknowledged.push(fuzzCase.eventId);
      else report.refusedValid.push({ status, detail: detail.slice(0, 300) });
    }
  };

  const worker = async () => {
    for (let next = cases.next(); !next.done; next = cases.next()) await send(next.value);
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return report;
}
