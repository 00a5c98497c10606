import { sql, type Selectable } from "kysely";
import type { AuditEntry } from "../../model";
import type { AuditRepo } from "../accounts-types";
import { rethrowConstraint, rowIdOf, type AppDialect } from "./dialect";
import type { AuditLogTable } from "./schema";

const COLUMNS = ["id", "organization_id", "actor_user_id", "actor_label", "event", "target_type", "target_id", "data", "ip_address", "date_created"] as const;

const toAuditEntry = (row: Selectable<AuditLogTable>): AuditEntry => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  actorUserId: row.actor_user_id === null ? null : String(row.actor_user_id),
  actorLabel: row.actor_label,
  event: row.event,
  targetType: row.target_type,
  targetId: row.target_id,
  data: JSON.parse(row.data) as Record<string, unknown>,
  ipAddress: row.ip_address,
  dateCreated: row.date_created,
});

export function appAudit(dialect: AppDialect): AuditRepo {
  const { db } = dialect;
  return {
    async append(entry) {
      try {
        const row = await db
          .insertInto("audit_log")
          .values({
            organization_id: rowIdOf(entry.organizationId), actor_user_id: entry.actorUserId === null ? null : rowIdOf(entry.actorUserId),
            actor_label: entry.actorLabel, event: entry.event, target_type: entry.targetType, target_id: entry.targetId,
            data: JSON.stringify(entry.data), ip_address: entry.ipAddress, date_created: entry.dateCreated ?? Date.now(),
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toAuditEntry(row);
      } catch (error) {
        rethrowConstraint(dialect, error, { missing: `no organisation ${entry.organizationId} or user ${entry.actorUserId}` });
      }
    },
    async list(organizationId, limit, before) {
      const organization = rowIdOf(organizationId);
      let query = db.selectFrom("audit_log").select(COLUMNS).where("organization_id", "=", organization);
      if (before !== undefined) {
        // The page after entry `before` (of the same organisation; an unknown one gives an empty page).
        const cursor = db.selectFrom("audit_log").select(["date_created", "id"]).where("id", "=", rowIdOf(before)).where("organization_id", "=", organization);
        query = query.where(sql<boolean>`(date_created, id) < (${cursor})`);
      }
      return (await query.orderBy("date_created", "desc").orderBy("id", "desc").limit(limit).execute()).map(toAuditEntry);
    },
  };
}
