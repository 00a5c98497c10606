/**
 * The PostgreSQL side of issue-reopen.ts, inside the commit's transaction, after the issue rows
 * were updated (and so locked): decides and writes the coming back of touched issues that are
 * resolved or ignored. Only those issues get here, so an ordinary batch runs none of this.
 */
import type { IssueDelta } from "../issue-deltas";
import { releasesNeedingDates, releasesOf, reopeningOf, touchedIssue, windowStart, type TouchedRow } from "../issue-reopen";
import type { Queryable } from "./db";

export async function reopenIssues(tx: Queryable, touched: { row: TouchedRow; delta: IssueDelta }[], now: number): Promise<void> {
  for (const { row, delta } of touched) {
    const issue = touchedIssue(row);
    const releases = releasesOf(delta);
    const dates = new Map<string, number | null>();
    for (const release of releasesNeedingDates(issue.statusDetails, releases)) {
      // An explicit release's date, else when the project first saw it on an event.
      const [found] = await tx.query<{ at: string | number | null }>(
        `SELECT COALESCE(
           (SELECT COALESCE(r.date_released, r.date_created) FROM releases r JOIN projects p ON p.organization_id = r.organization_id
             WHERE p.id = $1 AND r.version = $2),
           (SELECT MIN(t.first_seen) FROM issue_tags t JOIN issues i ON i.id = t.issue_id
             WHERE t.key = 'release' AND t.value = $2 AND i.project_id = $1)) AS at`,
        [issue.projectId, release],
      );
      dates.set(release, found?.at === null || found?.at === undefined ? null : Number(found.at));
    }
    const since = windowStart(issue, now);
    let eventsInWindow: number | null = null;
    if (since !== null) {
      const [counted] = await tx.query<{ n: string | number }>("SELECT COUNT(*) AS n FROM events WHERE issue_id = $1 AND timestamp >= $2", [issue.id, since]);
      eventsInWindow = Number(counted?.n ?? 0);
    }
    const reopening = reopeningOf(issue, { releases, now, eventsInWindow }, (release) => dates.get(release) ?? null);
    if (!reopening) continue;
    await tx.query("UPDATE issues SET status = 'unresolved', substatus = $1, status_details = NULL WHERE id = $2", [reopening.substatus, issue.id]);
    await tx.query("INSERT INTO issue_activity (issue_id, type, user_id, data, date_created) VALUES ($1, $2, NULL, $3, $4)", [
      issue.id, reopening.activity, JSON.stringify(reopening.data), now,
    ]);
    await tx.query("DELETE FROM issue_reviews WHERE issue_id = $1", [issue.id]);
  }
}
