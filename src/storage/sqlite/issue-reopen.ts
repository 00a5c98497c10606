/**
 * The SQLite side of issue-reopen.ts, inside the commit's transaction (commit thread or main
 * thread): for the touched issues that are resolved or ignored, decides and writes their coming
 * back. Only those issues get here, so an ordinary batch runs none of these statements.
 */
import type { IssueDelta } from "../issue-deltas";
import { releasesNeedingDates, releasesOf, reopeningOf, touchedIssue, windowStart, type TouchedRow } from "../issue-reopen";
import type { Db } from "./db";

export function reopenIssues(db: Db): (touched: { row: TouchedRow; delta: IssueDelta }[], now: number) => void {
  const eventsSince = db.prepare<[number, number], { n: number }>("SELECT COUNT(*) AS n FROM events WHERE issue_id = ? AND timestamp >= ?");
  // An explicit release's date, else when the project first saw it on an event.
  const releaseDate = db.prepare<[number, string, string, number], { at: number | null }>(
    `SELECT COALESCE(
       (SELECT COALESCE(r.date_released, r.date_created) FROM releases r JOIN projects p ON p.organization_id = r.organization_id
         WHERE p.id = ? AND r.version = ?),
       (SELECT MIN(t.first_seen) FROM issue_tags t JOIN issues i ON i.id = t.issue_id
         WHERE t.key = 'release' AND t.value = ? AND i.project_id = ?)) AS at`,
  );
  const setOpen = db.prepare<[string, number]>("UPDATE issues SET status = 'unresolved', substatus = ?, status_details = NULL WHERE id = ?");
  const addActivity = db.prepare<[number, string, string, number]>(
    "INSERT INTO issue_activity (issue_id, type, user_id, data, date_created) VALUES (?, ?, NULL, ?, ?)",
  );
  const unreview = db.prepare<[number]>("DELETE FROM issue_reviews WHERE issue_id = ?");

  return (touched, now) => {
    for (const { row, delta } of touched) {
      const issue = touchedIssue(row);
      const releases = releasesOf(delta);
      const dates = new Map<string, number | null>();
      for (const release of releasesNeedingDates(issue.statusDetails, releases)) {
        dates.set(release, releaseDate.get(issue.projectId, release, release, issue.projectId)?.at ?? null);
      }
      const since = windowStart(issue, now);
      const eventsInWindow = since === null ? null : eventsSince.get(issue.id, since)!.n;
      const reopening = reopeningOf(issue, { releases, now, eventsInWindow }, (release) => dates.get(release) ?? null);
      if (!reopening) continue;
      setOpen.run(reopening.substatus, issue.id);
      addActivity.run(issue.id, reopening.activity, JSON.stringify(reopening.data), now);
      unreview.run(issue.id);
    }
  };
}
