import { sql } from "kysely";
import type { LoginThrottleRepo } from "../accounts-types";
import type { AppDialect } from "./dialect";

export function appLoginThrottle(dialect: AppDialect): LoginThrottleRepo {
  const { db } = dialect;
  const since = (key: string, from: number) =>
    db
      .selectFrom("login_failures")
      .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.min("at").as("oldest")])
      .where("key", "=", key)
      .where("at", ">=", from)
      .executeTakeFirstOrThrow();
  return {
    async recordFailure(key, at) {
      await db.insertInto("login_failures").values({ key, at }).execute();
    },
    async countSince(key, from) {
      return Number((await since(key, from)).n);
    },
    async oldestSince(key, from) {
      const { oldest } = await since(key, from);
      return oldest === null ? null : Number(oldest);
    },
    async clear(key) {
      await db.deleteFrom("login_failures").where("key", "=", key).execute();
    },
    async forgetOne(key, at) {
      // Failures at the same time are equal rows: the physical row address picks exactly one.
      const address = sql.ref(dialect.rowAddress);
      const one = db.selectFrom("login_failures").select(address.as("address")).where("key", "=", key).where("at", "=", at).limit(1);
      await db.deleteFrom("login_failures").where(sql<boolean>`${address} = (${one})`).execute();
    },
    async deleteBefore(at) {
      return Number((await db.deleteFrom("login_failures").where("at", "<", at).executeTakeFirst()).numDeletedRows);
    },
  };
}
