import { notFound } from "next/navigation";
import { peekRuntime } from "@/src/runtime";

/** Test-hook pages exist only when ENABLE_TEST_HOOKS is set; otherwise they are plain 404s. */
export function requireTestHooks(): void {
  if (!peekRuntime()?.config.testHooks) notFound();
}
