import type { AccountStore } from "../accounts-types";
import type { Db } from "./db";
import { sqliteAudit, sqliteInvites } from "./accounts-invites";
import { sqliteMembers, sqliteTeams } from "./accounts-teams";
import { sqliteApiTokens, sqliteLoginSessions, sqliteLoginThrottle, sqliteUsers } from "./accounts-users";

/** People, sessions, tokens, membership, teams, invites, audit log and login throttling (0004_accounts.sql). */
export function sqliteAccounts(db: Db): AccountStore {
  return {
    users: sqliteUsers(db),
    loginSessions: sqliteLoginSessions(db),
    tokens: sqliteApiTokens(db),
    members: sqliteMembers(db),
    teams: sqliteTeams(db),
    invites: sqliteInvites(db),
    audit: sqliteAudit(db),
    loginThrottle: sqliteLoginThrottle(db),
  };
}
