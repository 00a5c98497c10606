import { requireTestHooks } from "../gate";
import { ClientErrorTrigger } from "./trigger";

export const dynamic = "force-dynamic";

export default async function ClientErrorPage() {
  await requireTestHooks("/test-hooks/client-error");
  return <ClientErrorTrigger />;
}
