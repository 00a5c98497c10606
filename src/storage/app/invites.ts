import type { Selectable } from "kysely";
import type { Role } from "../../auth/scopes";
import { AppError } from "../../errors";
import type { Invite } from "../../model";
import type { InviteRepo } from "../accounts-types";
import { rethrowConstraint, rowIdOf, type AppDialect } from "./dialect";
import type { InvitesTable } from "./schema";
import { normalEmail } from "./users";

const COLUMNS = ["id", "organization_id", "role", "team_ids", "email", "invited_by_user_id", "date_created", "expires_at", "accepted_at"] as const;

const toInvite = (row: Omit<Selectable<InvitesTable>, "token_hash">): Invite => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  role: row.role as Role,
  teamIds: JSON.parse(row.team_ids) as string[],
  email: row.email,
  invitedByUserId: row.invited_by_user_id === null ? null : String(row.invited_by_user_id),
  dateCreated: row.date_created,
  expiresAt: row.expires_at,
  acceptedAt: row.accepted_at,
});

export function appInvites(dialect: AppDialect): InviteRepo {
  const { db } = dialect;
  const select = () => db.selectFrom("invites").select(COLUMNS);
  return {
    async create({ organizationId, role, teamIds, email, invitedByUserId, tokenHash, expiresAt }) {
      const organization = rowIdOf(organizationId);
      const found = teamIds.length === 0 ? [] : await db.selectFrom("teams").select("id").where("id", "in", teamIds.map(rowIdOf)).where("organization_id", "=", organization).execute();
      const foreign = teamIds.find((teamId) => !found.some((team) => String(team.id) === teamId));
      if (foreign !== undefined) throw new AppError("not_found", `no team ${foreign} in organisation ${organizationId}`);
      try {
        const row = await db
          .insertInto("invites")
          .values({
            organization_id: organization, role, team_ids: JSON.stringify(teamIds), email: email === null ? null : normalEmail(email),
            invited_by_user_id: invitedByUserId === null ? null : rowIdOf(invitedByUserId), token_hash: tokenHash, date_created: Date.now(), expires_at: expiresAt,
          })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toInvite(row);
      } catch (error) {
        rethrowConstraint(dialect, error, { unique: "an invite with this token already exists", missing: `no organisation ${organizationId} or user ${invitedByUserId}` });
      }
    },
    async getByTokenHash(tokenHash) {
      const row = await select().where("token_hash", "=", tokenHash).executeTakeFirst();
      return row ? toInvite(row) : null;
    },
    async listPending(organizationId, now) {
      const rows = await select().where("organization_id", "=", rowIdOf(organizationId)).where("accepted_at", "is", null).where("expires_at", ">", now).orderBy("id").execute();
      return rows.map(toInvite);
    },
    async markAccepted(inviteId, at) {
      // A compare-and-set: of two concurrent acceptances (from any processes) one updates the row;
      // on PostgreSQL the other waits for its row lock, re-checks the WHERE and finds it accepted.
      const result = await db.updateTable("invites").set({ accepted_at: at }).where("id", "=", rowIdOf(inviteId)).where("accepted_at", "is", null).executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
    async releaseAcceptance(inviteId, at) {
      const result = await db.updateTable("invites").set({ accepted_at: null }).where("id", "=", rowIdOf(inviteId)).where("accepted_at", "=", at).executeTakeFirst();
      return result.numUpdatedRows === 1n;
    },
    async delete(inviteId) {
      await db.deleteFrom("invites").where("id", "=", rowIdOf(inviteId)).execute();
    },
  };
}
