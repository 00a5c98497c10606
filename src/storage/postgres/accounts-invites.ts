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
import { affected, constraintKind, idsOf, type PgDb } from "./db";

export function postgresInvites(db: PgDb): InviteRepo {
  return {
    async create({ organizationId, role, teamIds, email, invitedByUserId, tokenHash, expiresAt }) {
      const organization = rowIdOf(organizationId);
      const found = await db.query<{ id: number }>("SELECT id FROM teams WHERE id = ANY($1::bigint[]) AND organization_id = $2", [
        idsOf(teamIds),
        organization,
      ]);
      const foreign = teamIds.find((teamId) => !found.some((team) => String(team.id) === teamId));
      if (foreign !== undefined) throw new AppError("not_found", `no team ${foreign} in organisation ${organizationId}`);
      try {
        const [row] = await db.query<InviteRow>(
          `INSERT INTO invites (organization_id, role, team_ids, email, invited_by_user_id, token_hash, date_created, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${INVITE_COLUMNS}`,
          [
            organization, role, JSON.stringify(teamIds), email === null ? null : normalEmail(email),
            invitedByUserId === null ? null : rowIdOf(invitedByUserId), tokenHash, Date.now(), expiresAt,
          ],
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
      const [row] = await db.query<InviteRow>(`SELECT ${INVITE_COLUMNS} FROM invites WHERE token_hash = $1`, [tokenHash]);
      return row ? toInvite(row) : null;
    },
    async listPending(organizationId, now) {
      const rows = await db.query<InviteRow>(
        `SELECT ${INVITE_COLUMNS} FROM invites WHERE organization_id = $1 AND accepted_at IS NULL AND expires_at > $2 ORDER BY id`,
        [rowIdOf(organizationId), now],
      );
      return rows.map(toInvite);
    },
    async markAccepted(inviteId, at) {
      // A compare-and-set: of two concurrent acceptances (from any processes) one updates the row;
      // the other waits for its row lock, re-checks the WHERE and finds it accepted.
      return (await affected(db, "UPDATE invites SET accepted_at = $1 WHERE id = $2 AND accepted_at IS NULL", [at, rowIdOf(inviteId)])) === 1;
    },
    async delete(inviteId) {
      await db.query("DELETE FROM invites WHERE id = $1", [rowIdOf(inviteId)]);
    },
  };
}

export function postgresAudit(db: PgDb): AuditRepo {
  return {
    async append(entry) {
      try {
        const [row] = await db.query<AuditRow>(
          `INSERT INTO audit_log (organization_id, actor_user_id, actor_label, event, target_type, target_id, data, ip_address, date_created)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${AUDIT_COLUMNS}`,
          [
            rowIdOf(entry.organizationId), entry.actorUserId === null ? null : rowIdOf(entry.actorUserId), entry.actorLabel,
            entry.event, entry.targetType, entry.targetId, JSON.stringify(entry.data), entry.ipAddress, entry.dateCreated ?? Date.now(),
          ],
        );
        return toAuditEntry(row!);
      } catch (error) {
        rethrowConstraint(error, constraintKind(error), { missing: `no organisation ${entry.organizationId} or user ${entry.actorUserId}` });
      }
    },
    async list(organizationId, limit, before) {
      const organization = rowIdOf(organizationId);
      // The page after entry `before` (of the same organisation; an unknown one gives an empty page).
      const rows =
        before === undefined
          ? await db.query<AuditRow>(
              `SELECT ${AUDIT_COLUMNS} FROM audit_log WHERE organization_id = $1 ORDER BY date_created DESC, id DESC LIMIT $2`,
              [organization, limit],
            )
          : await db.query<AuditRow>(
              `SELECT ${AUDIT_COLUMNS} FROM audit_log
               WHERE organization_id = $1
                 AND (date_created, id) < (SELECT date_created, id FROM audit_log WHERE id = $2 AND organization_id = $1)
               ORDER BY date_created DESC, id DESC LIMIT $3`,
              [organization, rowIdOf(before), limit],
            );
      return rows.map(toAuditEntry);
    },
  };
}
