import { notFound } from "next/navigation";
import { requireUser } from "@/app/_lib/session";
import { peekRuntime } from "@/src/runtime";

/**
 * Test-hook pages exist only when ENABLE_TEST_HOOKS is set; otherwise they are plain 404s. Even
 * then they are pages like any other: signed-in people only.
 */
export async function requireTestHooks(path: string): Promise<void> {
  if (!peekRuntime()?.config.testHooks) notFound();
  await requireUser(path);
}
