import { AppError } from "../../errors";
import type { Issue, Organization, Project } from "../../model";
import type { Storage } from "../../storage/types";

/** The issue and its project; 404 when either is missing. */
export async function getIssue(storage: Storage, issueId: string): Promise<{ issue: Issue; project: Project }> {
  const issue = await storage.issues.getById(issueId);
  const project = issue ? await storage.projects.getById(issue.projectId) : null;
  if (!issue || !project) throw new AppError("not_found", "issue not found");
  return { issue, project };
}

/** The organisation an issue belongs to, through its project; 404 "issue not found" when any is missing. */
export async function organizationOfIssue(storage: Storage, issueId: string): Promise<Organization> {
  const { project } = await getIssue(storage, issueId);
  const organization = await storage.organizations.getById(project.organizationId);
  if (!organization) throw new AppError("not_found", "issue not found");
  return organization;
}
