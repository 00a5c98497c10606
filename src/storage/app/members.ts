import type { ExpressionBuilder, Selectable } from "kysely";
import type { Role } from "../../auth/scopes";
import type { Member, MemberWithUser } from "../../model";
import type { MemberRepo } from "../accounts-types";
import { rethrowConstraint, rowIdOf, type AppDialect, type AppQueries } from "./dialect";
import type { AppDatabase, MembersTable } from "./schema";

const COLUMNS = ["id", "organization_id", "user_id", "role", "date_created"] as const;

const toMember = (row: Selectable<MembersTable>): Member => ({
  id: String(row.id),
  organizationId: String(row.organization_id),
  userId: String(row.user_id),
  role: row.role as Role,
  dateCreated: row.date_created,
});

/** Members `m` joined to their users `u`; callers add WHERE and ORDER BY (by `u.email` for lists). Also teams.ts. */
export const selectMembersWithUsers = (db: AppQueries) =>
  db
    .selectFrom("members as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select([
      "m.id", "m.organization_id", "m.user_id", "m.role", "m.date_created",
      "u.email as user_email", "u.name as user_name", "u.date_created as user_date_created", "u.last_login as user_last_login",
    ]);

export const toMemberWithUser = (
  row: Selectable<MembersTable> & { user_email: string; user_name: string; user_date_created: number; user_last_login: number | null },
): MemberWithUser => ({
  ...toMember(row),
  user: { id: String(row.user_id), email: row.user_email, name: row.user_name, dateCreated: row.user_date_created, lastLogin: row.user_last_login },
});

/** The row being changed is not an owner, or its organisation has another owner. */
const keepsAnOwner = (eb: ExpressionBuilder<AppDatabase, "members">) =>
  eb.or([
    eb("members.role", "<>", "owner"),
    eb(
      eb
        .selectFrom("members as o")
        .select((count) => count.fn.countAll<number>().as("n"))
        .whereRef("o.organization_id", "=", "members.organization_id")
        .where("o.role", "=", "owner"),
      ">",
      1,
    ),
  ]);

/**
 * PostgreSQL: the owner rows of the member's organisation, locked before the conditional statement
 * counts them, so two concurrent changes (each removing "the other" owner) run one after the other
 * and the second counts what the first left.
 */
const lockOwners = (trx: AppQueries, memberId: number) =>
  trx
    .selectFrom("members")
    .select("id")
    .where("organization_id", "=", (eb) => eb.selectFrom("members as m").select("m.organization_id").where("m.id", "=", memberId))
    .where("role", "=", "owner")
    .orderBy("id")
    .forUpdate()
    .execute();

export function appMembers(dialect: AppDialect): MemberRepo {
  const { db } = dialect;
  const select = () => db.selectFrom("members").select(COLUMNS);
  const getById = async (id: number) => {
    const row = await select().where("id", "=", id).executeTakeFirst();
    return row ? toMember(row) : null;
  };
  return {
    async add({ organizationId, userId, role }) {
      try {
        const row = await db
          .insertInto("members")
          .values({ organization_id: rowIdOf(organizationId), user_id: rowIdOf(userId), role, date_created: Date.now() })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toMember(row);
      } catch (error) {
        rethrowConstraint(dialect, error, {
          unique: `user ${userId} is already a member of organisation ${organizationId}`,
          missing: `no organisation ${organizationId} or user ${userId}`,
        });
      }
    },
    async get(organizationId, userId) {
      const row = await select().where("organization_id", "=", rowIdOf(organizationId)).where("user_id", "=", rowIdOf(userId)).executeTakeFirst();
      return row ? toMember(row) : null;
    },
    getById: (id) => getById(rowIdOf(id)),
    async listByOrganization(organizationId) {
      const rows = await selectMembersWithUsers(db).where("m.organization_id", "=", rowIdOf(organizationId)).orderBy("u.email").execute();
      return rows.map(toMemberWithUser);
    },
    async listForUser(userId) {
      return (await select().where("user_id", "=", rowIdOf(userId)).orderBy("id").execute()).map(toMember);
    },
    async setRole(memberId, role) {
      const id = rowIdOf(memberId);
      const row = await dialect.guarded(
        (trx) => lockOwners(trx, id),
        (q) => {
          const update = q.updateTable("members").set({ role }).where("id", "=", id);
          return (role === "owner" ? update : update.where(keepsAnOwner)).returning(COLUMNS).executeTakeFirst();
        },
      );
      if (row) return toMember(row);
      return (await getById(id)) ? "last_owner" : null;
    },
    async remove(memberId) {
      const id = rowIdOf(memberId);
      // Team memberships go with the member (ON DELETE CASCADE).
      const result = await dialect.guarded(
        (trx) => lockOwners(trx, id),
        (q) => q.deleteFrom("members").where("id", "=", id).where(keepsAnOwner).executeTakeFirst(),
      );
      if (result.numDeletedRows > 0n) return "removed";
      return (await getById(id)) ? "last_owner" : "not_found";
    },
    async countOwners(organizationId) {
      const row = await db
        .selectFrom("members")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("organization_id", "=", rowIdOf(organizationId))
        .where("role", "=", "owner")
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async transferOwnership(fromMemberId, toMemberId) {
      const [from, to] = [rowIdOf(fromMemberId), rowIdOf(toMemberId)];
      // One UPDATE of both rows, only while the giver is an owner of the taker's organisation.
      // PostgreSQL: both rows locked first, in id order (as any other transfer locks them).
      const result = await dialect.guarded(
        (trx) => trx.selectFrom("members").select("id").where("id", "in", [from, to]).orderBy("id").forUpdate().execute(),
        (q) =>
          q
            .updateTable("members")
            .set((eb) => ({ role: eb.case().when("id", "=", to).then("owner").else("admin").end() }))
            .where("id", "in", [from, to])
            .where((eb) =>
              eb.exists(
                eb
                  .selectFrom("members as g")
                  .innerJoin("members as t", "t.organization_id", "g.organization_id")
                  .select("g.id")
                  .where("g.id", "=", from)
                  .where("t.id", "=", to)
                  .where("g.role", "=", "owner"),
              ),
            )
            .executeTakeFirst(),
      );
      return from !== to && result.numUpdatedRows === 2n;
    },
  };
}
