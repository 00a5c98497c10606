import { sql, type Selectable } from "kysely";
import type { User } from "../../model";
import type { UserRepo } from "../accounts-types";
import { rethrowConstraint, rowIdOf, type AppDialect } from "./dialect";
import type { UsersTable } from "./schema";

/** Emails are stored and looked up lower-cased. */
export const normalEmail = (email: string): string => email.toLowerCase();

const COLUMNS = ["id", "email", "name", "date_created", "last_login"] as const;

const toUser = (row: Omit<Selectable<UsersTable>, "password_hash">): User => ({
  id: String(row.id),
  email: row.email,
  name: row.name,
  dateCreated: row.date_created,
  lastLogin: row.last_login,
});

export function appUsers(dialect: AppDialect): UserRepo {
  const { db } = dialect;
  const select = () => db.selectFrom("users").select(COLUMNS);
  return {
    async count() {
      const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async create({ email, name, passwordHash }) {
      try {
        const row = await db
          .insertInto("users")
          .values({ email: normalEmail(email), name, password_hash: passwordHash, date_created: Date.now() })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
        return toUser(row);
      } catch (error) {
        rethrowConstraint(dialect, error, { unique: `a user with the email ${normalEmail(email)} already exists` });
      }
    },
    async createFirst({ email, name, passwordHash }) {
      // One INSERT ... SELECT ... WHERE NOT EXISTS. PostgreSQL: under READ COMMITTED two of them could
      // both see an empty table; the lock (which conflicts with itself, not with readers) makes the
      // second wait and then see the first.
      const row = await dialect.guarded(
        (trx) => sql`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`.execute(trx),
        (q) =>
          q
            .insertInto("users")
            .columns(["email", "name", "password_hash", "date_created"])
            .expression(
              q
                .selectNoFrom((eb) => [eb.val(normalEmail(email)).as("email"), eb.val(name).as("name"), eb.val(passwordHash).as("password_hash"), eb.val(Date.now()).as("date_created")])
                .where((eb) => eb.not(eb.exists(q.selectFrom("users").select("id")))),
            )
            .returning(COLUMNS)
            .executeTakeFirst(),
      );
      return row ? toUser(row) : null;
    },
    async getById(id) {
      const row = await select().where("id", "=", rowIdOf(id)).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async getByEmail(email) {
      const row = await select().where("email", "=", normalEmail(email)).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async list() {
      return (await select().orderBy("id").execute()).map(toUser);
    },
    async passwordHashOf(userId) {
      const row = await db.selectFrom("users").select("password_hash").where("id", "=", rowIdOf(userId)).executeTakeFirst();
      return row?.password_hash ?? null;
    },
    async setPasswordHash(userId, passwordHash) {
      await db.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", rowIdOf(userId)).execute();
    },
    async recordLogin(userId, at) {
      await db.updateTable("users").set({ last_login: at }).where("id", "=", rowIdOf(userId)).execute();
    },
  };
}
