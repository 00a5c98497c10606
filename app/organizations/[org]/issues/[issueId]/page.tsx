import type { Metadata } from "next";
import { IssueEventPage, issueMetadata } from "./issue-page";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ org: string; issueId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { org, issueId } = await params;
  return issueMetadata(org, issueId);
}

export default async function IssuePage({ params }: Props) {
  const { org, issueId } = await params;
  return <IssueEventPage org={org} issueId={issueId} />;
}
