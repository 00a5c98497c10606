import { sameSecret } from "@/src/auth/secrets";
import { getRuntime } from "@/src/runtime";

/** Whether `given` is the secret of the setup link this process printed at start. */
export function isSetupToken(given: string | undefined | null): boolean {
  return typeof given === "string" && sameSecret(given, getRuntime().setupToken);
}
