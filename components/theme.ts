import { cookies } from "next/headers";
import type { ThemeChoice } from "./theme-toggle";

/** The stored theme choice; "system" (follow prefers-color-scheme) when none is stored. */
export async function readThemeChoice(): Promise<ThemeChoice> {
  const value = (await cookies()).get("theme")?.value;
  return value === "light" || value === "dark" ? value : "system";
}
