import type { AccountStore } from "../accounts-types";
import { postgresAudit, postgresInvites } from "./accounts-invites";
import { postgresMembers, postgresTeams } from "./accounts-teams";
import { postgresApiTokens, postgresLoginSessions, postgresLoginThrottle, postgresUsers } from "./accounts-users";
import type { PgDb } from "./db";

/** People, sessions, tokens, membership, teams, invites, audit log and login throttling (0002_accounts.sql). */
export function postgresAccounts(db: PgDb): AccountStore {
  return {
    users: postgresUsers(db),
    loginSessions: postgresLoginSessions(db),
    tokens: postgresApiTokens(db),
    members: postgresMembers(db),
    teams: postgresTeams(db),
    invites: postgresInvites(db),
    audit: postgresAudit(db),
    loginThrottle: postgresLoginThrottle(db),
  };
}
