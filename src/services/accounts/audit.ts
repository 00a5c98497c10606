import type { AuditEntry } from "../../model";
import type { Storage } from "../../storage/types";
import { requireScope, type Access } from "./access";
import type { Actor } from "./actor";

export interface AuditTarget {
  type: string;
  id: string | null;
}

/** Appends one audit entry; every membership, role, token, key and project change goes through here. */
export function recordAudit(
  storage: Storage,
  actor: Actor,
  organizationId: string,
  event: string,
  target: AuditTarget,
  data: Record<string, unknown> = {},
): Promise<AuditEntry> {
  return storage.accounts.audit.append({
    organizationId,
    actorUserId: actor.userId,
    actorLabel: actor.label,
    event,
    targetType: target.type,
    targetId: target.id,
    data,
    ipAddress: actor.ipAddress,
  });
}

/** The organisation's audit log, newest first; `before` is the id of the last entry of the previous page. */
export async function listAuditEntries(storage: Storage, access: Access, limit: number, before?: string): Promise<AuditEntry[]> {
  requireScope(access, "org:write");
  return storage.accounts.audit.list(access.organization.id, limit, before);
}
