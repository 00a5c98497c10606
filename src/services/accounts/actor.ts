/** Who made a change, for the audit log: a signed-in person, the command line, or the server itself. */
import type { User } from "../../model";

export interface Actor {
  userId: string | null;
  /** Shown in the audit log: the person's email, "cli" or "system". */
  label: string;
  ipAddress: string | null;
}

export const CLI_ACTOR: Actor = { userId: null, label: "cli", ipAddress: null };
export const SYSTEM_ACTOR: Actor = { userId: null, label: "system", ipAddress: null };

export function actorOf(user: User, ipAddress: string | null): Actor {
  return { userId: user.id, label: user.email, ipAddress };
}
