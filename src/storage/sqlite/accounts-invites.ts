import { AppError } from "../../errors";
import {
  AUDIT_COLUMNS,
  INVITE_COLUMNS,
  normalEmail,
  rethrowConstraint,
  rowIdOf,
  toAuditEntry,
  toInvite,
  type AuditRow,
  type InviteRow,
} from "../account-rows";
import type { AuditRepo, InviteRepo } from "../accounts-types";
import { constraintKind, type Db } from "./db";

type Id = number | null;

export function sqliteInvites(db: Db): InviteRepo {
  const insert = db.prepare<[Id, string, string, string | null, Id, string, number, number], InviteRow>(
    `INSERT INTO invites (organization_id, role, team_ids, email, invited_by_user_id, token_hash, date_created, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${INVITE_COLUMNS}`,
  );
  const teamInOrganization = db.prepare<[Id, Id], { one: number }>("SELECT 1 AS one FROM teams WHERE id = ? AND organization_id = ?");
  const byTokenHash = db.prepare<[string], InviteRow>(`SELECT ${INVITE_COLUMNS} FROM invites WHERE token_hash = ?`);
  const pending = db.prepare<[Id, number], InviteRow>(
    `SELECT ${INVITE_COLUMNS} FROM invites WHERE organization_id = ? AND accepted_at IS NULL AND expires_at > ? ORDER BY id`,
  );
  // The WHERE makes acceptance a compare-and-set: of two concurrent acceptances one changes the row.
  const accept = db.prepare<[number, Id]>("UPDATE invites SET accepted_at = ? WHERE id = ? AND accepted_at IS NULL");
  const remove = db.prepare<[Id]>("DELETE FROM invites WHERE id = ?");
  return {
    async create({ organizationId, role, teamIds, email, invitedByUserId, tokenHash, expiresAt }) {
      const organization = rowIdOf(organizationId);
      const foreign = teamIds.find((teamId) => !teamInOrganization.get(rowIdOf(teamId), organization));
      if (foreign !== undefined) throw new AppError("not_found", `no team ${foreign} in organisation ${organizationId}`);
      try {
        const row = insert.get(
          organization, role, JSON.stringify(teamIds), email === null ? null : normalEmail(email),
          invitedByUserId === null ? null : rowIdOf(invitedByUserId), tokenHash, Date.now(), expiresAt,
        );
        return toInvite(row!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), {
          unique: "an invite with this token already exists",
          missing: `no organisation ${organizationId} or user ${invitedByUserId}`,
        });
      }
    },
    async getByTokenHash(tokenHash) {
      const row = byTokenHash.get(tokenHash);
      return row ? toInvite(row) : null;
    },
    async listPending(organizationId, now) {
      return pending.all(rowIdOf(organizationId), now).map(toInvite);
    },
    async markAccepted(inviteId, at) {
      return accept.run(at, rowIdOf(inviteId)).changes === 1;
    },
    async delete(inviteId) {
      remove.run(rowIdOf(inviteId));
    },
  };
}

export function sqliteAudit(db: Db): AuditRepo {
  const insert = db.prepare<[Id, Id, string, string, string, string | null, string, string | null, number], AuditRow>(
    `INSERT INTO audit_log (organization_id, actor_user_id, actor_label, event, target_type, target_id, data, ip_address, date_created)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${AUDIT_COLUMNS}`,
  );
  const newest = db.prepare<[Id, number], AuditRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE organization_id = ? ORDER BY date_created DESC, id DESC LIMIT ?`,
  );
  // The page after entry `before` (of the same organisation; an unknown one gives an empty page).
  const older = db.prepare<{ organization: Id; before: Id; limit: number }, AuditRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_log
     WHERE organization_id = @organization
       AND (date_created, id) < (SELECT date_created, id FROM audit_log WHERE id = @before AND organization_id = @organization)
     ORDER BY date_created DESC, id DESC LIMIT @limit`,
  );
  return {
    async append(entry) {
      try {
        const row = insert.get(
          rowIdOf(entry.organizationId), entry.actorUserId === null ? null : rowIdOf(entry.actorUserId), entry.actorLabel,
          entry.event, entry.targetType, entry.targetId, JSON.stringify(entry.data), entry.ipAddress, entry.dateCreated ?? Date.now(),
        );
        return toAuditEntry(row!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), { missing: `no organisation ${entry.organizationId} or user ${entry.actorUserId}` });
      }
    },
    async list(organizationId, limit, before) {
      const organization = rowIdOf(organizationId);
      const rows = before === undefined ? newest.all(organization, limit) : older.all({ organization, before: rowIdOf(before), limit });
      return rows.map(toAuditEntry);
    },
  };
}
