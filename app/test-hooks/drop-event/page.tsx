import { requireTestHooks } from "../gate";
import { DropEventTrigger } from "./trigger";

export const dynamic = "force-dynamic";

export default async function DropEventPage() {
  await requireTestHooks("/test-hooks/drop-event");
  return <DropEventTrigger />;
}
