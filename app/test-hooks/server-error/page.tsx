import { requireTestHooks } from "../gate";

export const dynamic = "force-dynamic";

export default async function ServerErrorPage() {
  await requireTestHooks("/test-hooks/server-error");
  throw new Error("periscope test server exception");
}
