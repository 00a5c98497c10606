import { redirect } from "next/navigation";
import { getRuntime } from "@/src/runtime";
import { homeOrganization } from "@/src/services/ui/workspace";

export const dynamic = "force-dynamic";

export default async function Home() {
  const organization = await homeOrganization(getRuntime().storage);
  redirect(`/organizations/${organization.slug}/issues`);
}
