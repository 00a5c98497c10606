/**
 * Feedback as people read it (the Feedback pages, the issue page, `/api/0/projects/{org}/{project}/user-feedback/`).
 * Feedback that names an event stored after it is linked to that event's issue when it is read.
 */
import { z } from "zod";
import { AppError } from "../../errors";
import type { Feedback, Issue, Project } from "../../model";
import type { Storage } from "../../storage/types";
import { requireProject, requireScope, type Access } from "../accounts/access";
import { recordFeedback } from "./record";

/** How many unlinked reports one read tries to link (each costs an event lookup). */
const LINK_BATCH = 50;

async function linkPending(storage: Storage, projectId: string): Promise<void> {
  for (const feedback of await storage.feedback.unlinked(projectId, LINK_BATCH)) {
    const event = feedback.associatedEventId ? await storage.events.get(projectId, feedback.associatedEventId) : null;
    if (event) await storage.feedback.setIssue(feedback.id, event.issueId);
  }
}

export interface FeedbackWithIssue {
  feedback: Feedback;
  issue: Issue | null;
}

async function withIssues(storage: Storage, list: Feedback[]): Promise<FeedbackWithIssue[]> {
  const issues = new Map<string, Issue | null>();
  for (const feedback of list) {
    if (feedback.issueId !== null && !issues.has(feedback.issueId)) issues.set(feedback.issueId, await storage.issues.getById(feedback.issueId));
  }
  return list.map((feedback) => ({ feedback, issue: feedback.issueId === null ? null : (issues.get(feedback.issueId) ?? null) }));
}

/** Newest first; `before`: the last id of the previous page. */
export async function listFeedback(storage: Storage, projects: Project[], limit: number, before?: string): Promise<FeedbackWithIssue[]> {
  for (const project of projects) await linkPending(storage, project.id);
  return withIssues(storage, await storage.feedback.list(projects.map((project) => project.id), Math.min(Math.max(limit, 1), 100), before));
}

export async function getFeedback(storage: Storage, access: Access, project: Project, id: string): Promise<FeedbackWithIssue> {
  requireProject(access, project);
  await linkPending(storage, project.id);
  const feedback = await storage.feedback.get(project.id, id);
  if (!feedback) throw new AppError("not_found", "feedback not found");
  return (await withIssues(storage, [feedback]))[0]!;
}

/** The feedback on an issue's events (the issue page). */
export async function feedbackForIssue(storage: Storage, issue: Issue, limit = 50): Promise<Feedback[]> {
  await linkPending(storage, issue.projectId);
  return storage.feedback.listForIssue(issue.id, limit);
}

/** Sentry's legacy POST body. */
export const userReportInput = z.object({
  event_id: z
    .string()
    .transform((value) => value.trim().toLowerCase().replaceAll("-", ""))
    .refine((value) => /^[0-9a-f]{32}$/.test(value), "must be an event id (32 hex digits)"),
  name: z.string().max(1000).optional().default(""),
  email: z.string().max(1000).optional().default(""),
  comments: z.string().trim().min(1, "must not be empty").max(4096),
});
export type UserReportInput = z.infer<typeof userReportInput>;

export async function postUserReport(storage: Storage, access: Access, project: Project, input: UserReportInput, now = Date.now()): Promise<FeedbackWithIssue> {
  requireScope(access, ["event:write", "project:write"]);
  requireProject(access, project);
  const payload = JSON.stringify({ event_id: input.event_id, name: input.name, email: input.email, comments: input.comments });
  await recordFeedback(storage, project.id, {
    feedbackId: input.event_id,
    kind: "user_report",
    name: input.name || null,
    email: input.email || null,
    message: input.comments,
    url: null,
    associatedEventId: input.event_id,
    replayId: null,
    traceId: null,
    environment: null,
    release: null,
    source: "api",
    payload,
    dateCreated: now,
  });
  const stored = await storage.feedback.getByFeedbackId(project.id, input.event_id);
  if (!stored) throw new AppError("conflict", `feedback for event ${input.event_id} could not be stored`);
  return (await withIssues(storage, [stored]))[0]!;
}
