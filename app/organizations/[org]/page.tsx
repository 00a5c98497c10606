import { redirect } from "next/navigation";

export const dynamic = "force-dynamic";

export default async function OrganizationHome({ params }: { params: Promise<{ org: string }> }) {
  redirect(`/organizations/${(await params).org}/issues`);
}
