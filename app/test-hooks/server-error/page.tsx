import { requireTestHooks } from "../gate";

export const dynamic = "force-dynamic";

export default function ServerErrorPage() {
  requireTestHooks();
  throw new Error("periscope test server exception");
}
