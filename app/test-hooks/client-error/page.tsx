import { requireTestHooks } from "../gate";
import { ClientErrorTrigger } from "./trigger";

export const dynamic = "force-dynamic";

export default function ClientErrorPage() {
  requireTestHooks();
  return <ClientErrorTrigger />;
}
