/**
 * The boundary eslint.config.mjs enforces: app/, components/ and src/api/ reach data only through
 * src/services. Lints snippets as if they were files there, with the project's own configuration,
 * so a loosened pattern or selector fails here.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { before, describe, it } from "node:test";
import { ESLint } from "eslint";

const root = path.resolve(import.meta.dirname, "..", "..");
const BOUNDARY_RULES = new Set(["no-restricted-imports", "no-restricted-syntax"]);

let eslint: ESLint;

/** The boundary rules' findings for `code` as the file at `relativePath`, as "rule@line". */
async function boundaryErrors(relativePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, relativePath) });
  assert.ok(result, "eslint returned no result");
  const fatal = result.messages.filter((message) => message.fatal);
  assert.deepEqual(fatal, [], "the snippet must parse");
  return result.messages
    .filter((message) => message.ruleId !== null && BOUNDARY_RULES.has(message.ruleId))
    .map((message) => `${message.ruleId}@${message.line}`);
}

before(() => {
  eslint = new ESLint({ cwd: root });
});

describe("lint: app/, components/ and src/api/ never reach storage", () => {
  it("refuses importing storage however the path is written, type-only imports and re-exports included", async () => {
    const code = [
      'import type { Storage } from "@/src/storage/types";',
      'import { openStorage } from "@/src/storage";',
      'import type { TeamRepo } from "../../../src/storage/accounts-types";',
      'export { sqliteTeams } from "../../../src/storage/sqlite/accounts-teams";',
      'export const load = () => import("@/src/storage/open");',
      "export type Used = [Storage, TeamRepo, typeof openStorage];",
    ].join("\n");
    assert.deepEqual(await boundaryErrors("app/settings/[org]/teams/page.tsx", code), [
      "no-restricted-imports@1",
      "no-restricted-imports@2",
      "no-restricted-imports@3",
      "no-restricted-imports@4",
      "no-restricted-syntax@5",
    ]);
    assert.deepEqual(await boundaryErrors("components/issues/list.tsx", 'import type { Storage } from "../../src/storage/types";\nexport type S = Storage;\n'), [
      "no-restricted-imports@1",
    ]);
    assert.deepEqual(await boundaryErrors("src/api/routes/list.ts", 'import type { Storage } from "../../storage/types";\nexport type S = Storage;\n'), [
      "no-restricted-imports@1",
    ]);
  });

  it("refuses calling storage's repositories through the runtime", async () => {
    const code = [
      'import { getRuntime } from "@/src/runtime";',
      "export async function load(teamId: string) {",
      "  const runtime = getRuntime();",
      "  const a = await runtime.storage.accounts.teams.listMembers(teamId);",
      "  const b = await getRuntime().storage.keys.listByProject(teamId);",
      "  const { storage } = runtime;",
      "  const c = await storage.projects.getById(teamId);",
      "  const { accounts } = runtime.storage;",
      "  const { storage: { events } } = runtime;",
      "  return [a, b, c, accounts, events];",
      "}",
    ].join("\n");
    assert.deepEqual(await boundaryErrors("app/api/0/organizations/[org]/teams/route.ts", code), [
      "no-restricted-syntax@4",
      "no-restricted-syntax@5",
      "no-restricted-syntax@7",
      "no-restricted-syntax@8",
      "no-restricted-syntax@9",
    ]);
  });

  it("allows services, model types and handing the runtime's storage to a service", async () => {
    const code = [
      'import { getRuntime } from "@/src/runtime";',
      'import type { Team } from "@/src/model";',
      'import { listTeams } from "@/src/services/accounts/teams";',
      'import type { Access } from "@/src/services/accounts/access";',
      "export async function load(access: Access): Promise<Team[]> {",
      "  const { storage } = getRuntime();",
      "  const first = await listTeams(getRuntime().storage, access);",
      "  return first.length > 0 ? first : listTeams(storage, access);",
      "}",
    ].join("\n");
    assert.deepEqual(await boundaryErrors("app/settings/[org]/teams/page.tsx", code), []);
    assert.deepEqual(await boundaryErrors("src/api/routes/teams.ts", code.replaceAll("@/src/", "../../")), []);
  });

  it("leaves services and storage itself free to use storage", async () => {
    const code = 'import type { Storage } from "../../storage/types";\nexport const teamsOf = (storage: Storage, id: string) => storage.accounts.teams.listByOrganization(id);\n';
    assert.deepEqual(await boundaryErrors("src/services/accounts/teams-extra.ts", code), []);
  });
});
