/** Personal API tokens: shown once at creation, stored as a digest, revocable at once. */
import { z } from "zod";
import { AppError } from "../../errors";
import { parseInput } from "../parse-input";
import { isScope, type Scope } from "../../auth/scopes";
import { digestOf, newApiToken } from "../../auth/secrets";
import type { ApiToken, User } from "../../model";
import type { Storage } from "../../storage/types";
import type { Actor } from "./actor";
import { recordAudit } from "./audit";

export const newTokenInput = z.object({
  name: z.string().trim().min(1, "name: required").max(100, "name: at most 100 characters"),
  scopes: z.array(z.string()).min(1, "scopes: choose at least one"),
});

export function parseScopes(values: readonly string[]): Scope[] {
  const unknown = values.filter((value) => !isScope(value));
  if (unknown.length > 0) throw new AppError("bad_request", `unknown scope${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}`);
  return [...new Set(values as Scope[])];
}

export async function createApiToken(
  storage: Storage,
  actor: Actor,
  user: User,
  input: { name: string; scopes: readonly string[] },
): Promise<{ token: string; apiToken: ApiToken }> {
  const data = parseInput(newTokenInput, input);
  const scopes = parseScopes(data.scopes);
  const token = newApiToken();
  const apiToken = await storage.accounts.tokens.create({
    userId: user.id,
    name: data.name,
    tokenHash: digestOf(token),
    tokenLastChars: token.slice(-4),
    scopes,
  });
  await auditInEveryOrganization(storage, actor, user, "token.create", apiToken, { name: apiToken.name, scopes });
  return { token, apiToken };
}

export async function revokeApiToken(storage: Storage, actor: Actor, user: User, tokenId: string): Promise<void> {
  const token = (await storage.accounts.tokens.listForUser(user.id)).find((candidate) => candidate.id === tokenId);
  if (!token || !(await storage.accounts.tokens.revoke(user.id, tokenId))) throw new AppError("not_found", "token not found");
  await auditInEveryOrganization(storage, actor, user, "token.revoke", token, { name: token.name });
}

/** Tokens belong to a person, not an organisation: each organisation they are in sees the change. */
async function auditInEveryOrganization(storage: Storage, actor: Actor, user: User, event: string, token: ApiToken, data: Record<string, unknown>) {
  for (const member of await storage.accounts.members.listForUser(user.id)) {
    await recordAudit(storage, actor, member.organizationId, event, { type: "token", id: token.id }, { ...data, owner: user.email });
  }
}

/** The person's API tokens, as stored (only their digests, never the secrets). */
export async function listApiTokens(storage: Storage, user: User): Promise<ApiToken[]> {
  return storage.accounts.tokens.listForUser(user.id);
}
