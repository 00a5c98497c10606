/** User feedback (feedback and user_report items); a retried item is stored once per (project, feedback id). */
import type { Selectable } from "kysely";
import type { Feedback, FeedbackKind } from "../../model";
import type { FeedbackRepo } from "../monitor-types";
import { rowIdOf, type AppDialect } from "./dialect";
import type { UserFeedbackTable } from "./schema";

const toFeedback = (row: Selectable<UserFeedbackTable>): Feedback => ({
  id: String(row.id),
  projectId: String(row.project_id),
  feedbackId: row.feedback_id,
  kind: row.kind as FeedbackKind,
  name: row.name,
  email: row.email,
  message: row.message,
  url: row.url,
  associatedEventId: row.associated_event_id,
  issueId: row.issue_id === null ? null : String(row.issue_id),
  replayId: row.replay_id,
  traceId: row.trace_id,
  environment: row.environment,
  release: row.release,
  source: row.source,
  payload: row.payload,
  dateCreated: row.date_created,
});

export function appFeedback(dialect: AppDialect): FeedbackRepo {
  const { db } = dialect;
  return {
    async insert(projectId, input) {
      const row = await db
        .insertInto("user_feedback")
        .values({
          project_id: rowIdOf(projectId),
          feedback_id: input.feedbackId,
          kind: input.kind,
          name: input.name,
          email: input.email,
          message: input.message,
          url: input.url,
          associated_event_id: input.associatedEventId,
          issue_id: null,
          replay_id: input.replayId,
          trace_id: input.traceId,
          environment: input.environment,
          release: input.release,
          source: input.source,
          payload: input.payload,
          date_created: input.dateCreated,
        })
        .onConflict((conflict) => conflict.columns(["project_id", "feedback_id"]).doNothing())
        .returningAll()
        .executeTakeFirst();
      return row ? toFeedback(row) : null;
    },
    async get(projectId, id) {
      const row = await db.selectFrom("user_feedback").selectAll().where("project_id", "=", rowIdOf(projectId)).where("id", "=", rowIdOf(id)).executeTakeFirst();
      return row ? toFeedback(row) : null;
    },
    async getByFeedbackId(projectId, feedbackId) {
      const row = await db.selectFrom("user_feedback").selectAll().where("project_id", "=", rowIdOf(projectId)).where("feedback_id", "=", feedbackId).executeTakeFirst();
      return row ? toFeedback(row) : null;
    },
    async list(projectIds, limit, before) {
      const ids = projectIds.map(rowIdOf).filter((id) => id > 0);
      if (ids.length === 0) return [];
      let query = db.selectFrom("user_feedback").selectAll().where("project_id", "in", ids);
      if (before !== undefined) query = query.where("id", "<", rowIdOf(before));
      return (await query.orderBy("id", "desc").limit(limit).execute()).map(toFeedback);
    },
    async listForIssue(issueId, limit) {
      const rows = await db.selectFrom("user_feedback").selectAll().where("issue_id", "=", rowIdOf(issueId)).orderBy("id", "desc").limit(limit).execute();
      return rows.map(toFeedback);
    },
    async unlinked(projectId, limit) {
      const rows = await db
        .selectFrom("user_feedback")
        .selectAll()
        .where("project_id", "=", rowIdOf(projectId))
        .where("issue_id", "is", null)
        .where("associated_event_id", "is not", null)
        .orderBy("id", "desc")
        .limit(limit)
        .execute();
      return rows.map(toFeedback);
    },
    async setIssue(id, issueId) {
      await db.updateTable("user_feedback").set({ issue_id: rowIdOf(issueId) }).where("id", "=", rowIdOf(id)).execute();
    },
  };
}
