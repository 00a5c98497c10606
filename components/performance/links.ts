/** Where the performance views live (issue 36); other sections link to a trace through traceHref. */
export const traceHref = (organizationSlug: string, traceId: string) => `/organizations/${organizationSlug}/traces/${traceId}`;

export const performanceHref = (organizationSlug: string, projectId?: string) =>
  `/organizations/${organizationSlug}/performance${projectId ? `?project=${projectId}` : ""}`;

export const transactionHref = (organizationSlug: string, projectId: string, name: string) =>
  `/organizations/${organizationSlug}/performance/summary?project=${projectId}&transaction=${encodeURIComponent(name)}`;
