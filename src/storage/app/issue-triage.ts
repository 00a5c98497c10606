/**
 * Issue triage app data (issue workflow): assignment, bookmarks, "reviewed" and the activity log,
 * over Kysely for both engines. Every write is one statement (ADR 0011). The ingest path writes
 * activity and removes review rows itself when an issue comes back (../issue-reopen.ts).
 */
import type { IssueActivity, IssueAssignee } from "../../model";
import type { IssueTriageRepo } from "../types";
import { rowIdOf, type AppDialect } from "./dialect";

const ids = (issueIds: string[]) => issueIds.map(rowIdOf);

export function appIssueTriage(dialect: AppDialect): IssueTriageRepo {
  const { db } = dialect;
  return {
    async assign(issueId, assignee, now) {
      if (assignee === null) {
        const deleted = await db.deleteFrom("issue_assignments").where("issue_id", "=", rowIdOf(issueId)).executeTakeFirst();
        return Number(deleted.numDeletedRows) > 0;
      }
      const row = {
        issue_id: rowIdOf(issueId),
        user_id: assignee.kind === "user" ? rowIdOf(assignee.userId) : null,
        team_id: assignee.kind === "team" ? rowIdOf(assignee.teamId) : null,
        date_assigned: now,
      };
      await db
        .insertInto("issue_assignments")
        .values(row)
        .onConflict((c) => c.column("issue_id").doUpdateSet({ user_id: row.user_id, team_id: row.team_id, date_assigned: now }))
        .execute();
      return true;
    },

    async assignments(issueIds) {
      const found = new Map<string, IssueAssignee>();
      if (issueIds.length === 0) return found;
      const rows = await db.selectFrom("issue_assignments").selectAll().where("issue_id", "in", ids(issueIds)).execute();
      for (const row of rows) {
        found.set(String(row.issue_id), row.user_id !== null ? { kind: "user", userId: String(row.user_id) } : { kind: "team", teamId: String(row.team_id) });
      }
      return found;
    },

    async setBookmark(issueId, userId, bookmarked, now) {
      if (bookmarked) {
        await db
          .insertInto("issue_bookmarks")
          .values({ issue_id: rowIdOf(issueId), user_id: rowIdOf(userId), date_created: now })
          .onConflict((c) => c.columns(["issue_id", "user_id"]).doNothing())
          .execute();
      } else {
        await db.deleteFrom("issue_bookmarks").where("issue_id", "=", rowIdOf(issueId)).where("user_id", "=", rowIdOf(userId)).execute();
      }
    },

    async bookmarked(userId, issueIds) {
      if (issueIds.length === 0) return new Set();
      const rows = await db
        .selectFrom("issue_bookmarks")
        .select("issue_id")
        .where("user_id", "=", rowIdOf(userId))
        .where("issue_id", "in", ids(issueIds))
        .execute();
      return new Set(rows.map((row) => String(row.issue_id)));
    },

    async setReviewed(issueId, userId, reviewed, now) {
      if (reviewed) {
        await db
          .insertInto("issue_reviews")
          .values({ issue_id: rowIdOf(issueId), user_id: userId === null ? null : rowIdOf(userId), date_reviewed: now })
          .onConflict((c) => c.column("issue_id").doNothing())
          .execute();
      } else {
        await db.deleteFrom("issue_reviews").where("issue_id", "=", rowIdOf(issueId)).execute();
      }
    },

    async reviewed(issueIds) {
      if (issueIds.length === 0) return new Set();
      const rows = await db.selectFrom("issue_reviews").select("issue_id").where("issue_id", "in", ids(issueIds)).execute();
      return new Set(rows.map((row) => String(row.issue_id)));
    },

    async addActivity({ issueId, type, userId, data, now }) {
      const row = await db
        .insertInto("issue_activity")
        .values({ issue_id: rowIdOf(issueId), type, user_id: userId === null ? null : rowIdOf(userId), data: JSON.stringify(data), date_created: now })
        .returning(["id", "issue_id", "type", "user_id", "data", "date_created"])
        .executeTakeFirstOrThrow();
      return toActivity(row);
    },

    async listActivity(issueId, limit) {
      const rows = await db
        .selectFrom("issue_activity")
        .select(["id", "issue_id", "type", "user_id", "data", "date_created"])
        .where("issue_id", "=", rowIdOf(issueId))
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map(toActivity);
    },

    async countNotes(issueIds) {
      const counts = new Map<string, number>();
      if (issueIds.length === 0) return counts;
      const rows = await db
        .selectFrom("issue_activity")
        .select(["issue_id", (eb) => eb.fn.countAll<number | string>().as("n")])
        .where("issue_id", "in", ids(issueIds))
        .where("type", "=", "note")
        .groupBy("issue_id")
        .execute();
      for (const row of rows) counts.set(String(row.issue_id), Number(row.n));
      return counts;
    },

    async forgetIssues(issueIds) {
      if (issueIds.length === 0) return;
      const list = ids(issueIds);
      await db.deleteFrom("issue_assignments").where("issue_id", "in", list).execute();
      await db.deleteFrom("issue_bookmarks").where("issue_id", "in", list).execute();
      await db.deleteFrom("issue_reviews").where("issue_id", "in", list).execute();
      await db.deleteFrom("issue_activity").where("issue_id", "in", list).execute();
    },
  };
}

function toActivity(row: { id: number; issue_id: number; type: string; user_id: number | null; data: string; date_created: number }): IssueActivity {
  return {
    id: String(row.id),
    issueId: String(row.issue_id),
    type: row.type,
    userId: row.user_id === null ? null : String(row.user_id),
    data: JSON.parse(row.data) as Record<string, unknown>,
    dateCreated: Number(row.date_created),
  };
}
