import { requireTestHooks } from "../gate";
import { DropEventTrigger } from "./trigger";

export const dynamic = "force-dynamic";

export default function DropEventPage() {
  requireTestHooks();
  return <DropEventTrigger />;
}
