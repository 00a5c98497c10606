/**
 * The command-line admin (`periscope user create | user reset-password | token create | org list`),
 * run as a child process exactly as an operator runs it, against a fresh SQLite data directory and,
 * when reachable, a fresh PostgreSQL schema. What each command did is read back through the storage
 * interface: accounts, memberships, password hashes, sessions, token digests and audit entries.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { verifyPassword } from "../../src/auth/password";
import { digestOf } from "../../src/auth/secrets";
import { createPostgresStorage } from "../../src/storage/postgres";
import { createSqliteStorage, SQLITE_FILE_NAME } from "../../src/storage/sqlite";
import type { Storage } from "../../src/storage/types";
import { freshSchema, postgresForTests, type TestSchema } from "../helpers/postgres";

const root = path.resolve(import.meta.dirname, "..", "..");
// Probed before any test runs: the CLI runs are synchronous and would starve the probe's timer.
const postgresReachable = await postgresForTests("periscope CLI (PostgreSQL)");

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The environment the server would have: only what the test sets, nothing inherited that picks an engine. */
function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const key of ["DATA_DIR", "DATABASE_URL", "PERISCOPE_ADMIN_EMAIL", "PERISCOPE_ADMIN_PASSWORD"]) delete inherited[key];
  return { ...inherited, ...env };
}

function cli(args: string[], env: Record<string, string>, input?: string): Run {
  const result = spawnSync(process.execPath, ["--import", "tsx", "src/cli/index.ts", ...args], {
    cwd: root,
    encoding: "utf8",
    env: environment(env),
    input: input ?? "",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Exit code 2, nothing on stdout, and the problem named on stderr. */
function assertUsageError(run: Run, message: RegExp): void {
  assert.equal(run.status, 2, run.stdout + run.stderr);
  assert.equal(run.stdout, "");
  assert.match(run.stderr, message);
}

describe("periscope CLI: help and bad command lines", () => {
  let dataDir: string;
  let env: Record<string, string>;
  before(() => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), "periscope-cli-usage-")), "data");
    env = { DATA_DIR: dataDir };
  });
  after(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  it("lists every command at the top level, through the installed bin as well", () => {
    const run = spawnSync(process.execPath, ["bin/periscope.js", "--help"], { cwd: root, encoding: "utf8", env: environment(env) });
    assert.equal(run.status, 0, run.stderr);
    const names = run.stdout.split("\n").filter((line) => line.startsWith("  ")).map((line) => line.trim().split(/\s{2,}/)[0]);
    assert.deepEqual(names, ["user create", "user reset-password", "token create", "org list", "org create", "migrate-to-postgres"]);
    assert.match(run.stdout, /DATA_DIR/);
    assert.match(run.stdout, /DATABASE_URL/);
    assert.deepEqual(cli(["-h"], env).stdout, run.stdout);

    const group = cli(["user"], env);
    assert.equal(group.status, 0);
    assert.match(group.stdout, /^Usage: periscope user <command>/);
    assert.match(group.stdout, /user create/);
    assert.match(group.stdout, /user reset-password/);
    assert.doesNotMatch(group.stdout, /token create/);
  });

  it("prints each command's help, naming its flags, without touching the installation", () => {
    const expected: Record<string, string[]> = {
      "user create": ["--email", "--name", "--password", "--password-stdin", "--org", "--role"],
      "user reset-password": ["--email", "--password", "--password-stdin"],
      "token create": ["--email", "--scopes", "--name", "project:releases"],
      "org list": ["--json"],
      "org create": ["--name", "--owner", "--slug"],
    };
    for (const [command, flags] of Object.entries(expected)) {
      for (const helpFlag of ["--help", "-h"]) {
        const run = cli([...command.split(" "), helpFlag], env);
        assert.equal(run.status, 0, run.stderr);
        assert.equal(run.stderr, "");
        assert.ok(run.stdout.startsWith(`Usage: periscope ${command} `), run.stdout);
        for (const flag of flags) assert.ok(run.stdout.includes(flag), `${command} --help mentions ${flag}`);
      }
    }
    // Help wins over everything else on the line, and the existing command keeps its own.
    assert.equal(cli(["token", "create", "--bogus", "--help"], env).status, 0);
    const migrate = cli(["migrate-to-postgres", "--help"], env);
    assert.equal(migrate.status, 0);
    assert.match(migrate.stdout, /^Usage: periscope migrate-to-postgres --from/);
    assert.equal(existsSync(dataDir), false, "help opens no storage");
  });

  it("refuses bad command lines with exit code 2 and names the problem", () => {
    assertUsageError(cli(["frobnicate"], env), /^error: unknown command: frobnicate\n/);
    assertUsageError(cli(["user", "delete"], env), /^error: unknown command: user delete\n/);
    assertUsageError(cli(["user", "create", "--email", "ana@example.com", "--colour", "red"], env), /^error: unknown flag: --colour\nRun `periscope user create --help`/);
    assertUsageError(cli(["user", "create", "--email"], env), /^error: --email needs a value/);
    assertUsageError(cli(["user", "create", "--email", "--name", "Ana"], env), /^error: --email needs a value/);
    assertUsageError(cli(["user", "create", "--email", "a@example.com", "--email", "b@example.com"], env), /--email given more than once/);
    assertUsageError(cli(["user", "create", "--name", "Ana"], env), /^error: missing --email\n/);
    assertUsageError(cli(["user", "create", "--email", "not-an-email"], env), /^error: --email: "not-an-email" is not an email address/);
    assertUsageError(cli(["user", "create", "--email", "ana@example.com", "--role", "boss"], env), /--role: unknown role "boss"; expected one of owner, admin, member, viewer/);
    assertUsageError(cli(["user", "reset-password", "ana@example.com"], env), /^error: unexpected argument: ana@example.com/);
    assertUsageError(cli(["token", "create", "--email", "ana@example.com"], env), /^error: missing --scopes/);
    assertUsageError(cli(["token", "create", "--email", "ana@example.com", "--scopes", " , "], env), /--scopes: name at least one scope/);
    assertUsageError(
      cli(["token", "create", "--email", "ana@example.com", "--scopes", "org:read,org:rule,everything"], env),
      /^error: --scopes: unknown scopes: org:rule, everything; known scopes: org:read, /,
    );
    assertUsageError(cli(["org", "list", "--json=yes"], env), /--json takes no value/);
    assertUsageError(cli(["org", "create", "--name", "Acme"], env), /^error: missing --owner\n/);
    assertUsageError(cli(["org", "create", "--name", "Acme", "--owner", "nobody"], env), /--owner: "nobody" is not an email address/);
    assertUsageError(cli(["migrate-to-postgres", "--bogus"], env), /Unknown option '--bogus'/);
    assert.equal(existsSync(dataDir), false, "a refused command line opens no storage");

    // Password problems: checked after the account is looked up, still the command line's fault.
    assertUsageError(cli(["user", "create", "--email", "ana@example.com"], env), /no password: pipe it in with --password-stdin/);
    assertUsageError(cli(["user", "create", "--email", "ana@example.com", "--password", "p", "--password-stdin"], env, "q\n"), /give --password or --password-stdin, not both/);
    assertUsageError(cli(["user", "create", "--email", "ana@example.com", "--password-stdin"], env, "short\n"), /password must be at least 8 characters/);
    assertUsageError(cli(["user", "create", "--email", "ana@example.com", "--password-stdin"], env, ""), /standard input held no password/);
  });

  it("gives the first account no other organisation or role than owner of the default one, exit code 1", () => {
    const run = cli(["user", "create", "--email", "vic@example.com", "--role", "viewer", "--password-stdin"], env, "viewer-pass-1\n");
    assert.equal(run.status, 1);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      'error: this is the installation\'s first account: it becomes owner of the "default" organisation; run again without --org/--role\n',
    );
    const owner = cli(["user", "create", "--email", "olga@example.com", "--role", "owner", "--org", "default", "--password-stdin"], env, "owner-pass-1\n");
    assert.equal(owner.status, 0, owner.stderr);
    assert.equal(owner.stdout, 'Created olga@example.com (id 1), owner of the organisation "default".\n');
  });

  it("reports an invalid environment as the server would, exit code 1", () => {
    const run = cli(["org", "list"], { DATA_DIR: dataDir, DATABASE_URL: "mysql://db/periscope" });
    assert.equal(run.status, 1);
    assert.match(run.stderr, /DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
  });
});

describe("periscope CLI: which database it opens", () => {
  let cwd: string;
  /** Through the installed bin, from `cwd`, with neither DATA_DIR nor DATABASE_URL: as an operator who forgot them. */
  const bare = (args: string[], input = ""): Run => {
    const run = spawnSync(process.execPath, [path.join(root, "bin", "periscope.js"), ...args], { cwd, encoding: "utf8", env: environment({}), input });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  before(() => {
    cwd = mkdtempSync(path.join(tmpdir(), "periscope-cli-cwd-"));
  });
  after(() => rmSync(cwd, { recursive: true, force: true }));

  it("refuses, creating nothing, when DATA_DIR and DATABASE_URL are unset and ./data holds no database", () => {
    for (const args of [["org", "list"], ["token", "create", "--email", "ana@example.com", "--scopes", "org:read"], ["user", "reset-password", "--email", "ana@example.com", "--password-stdin"]]) {
      const run = bare(args, "new-pass-123\n");
      assert.equal(run.status, 1, `${args.join(" ")}: ${run.stderr}`);
      assert.equal(run.stdout, "");
      assert.equal(
        run.stderr,
        `error: no database at ${path.join(cwd, "data", SQLITE_FILE_NAME)}: DATA_DIR and DATABASE_URL are not set, and the default ./data holds none. ` +
          "Run the command with the server's environment (DATA_DIR=<the server's data directory> or DATABASE_URL=postgres://...).\n",
      );
      assert.equal(existsSync(path.join(cwd, "data")), false, `${args.join(" ")} left no ./data behind`);
    }
  });

  it("refuses a DATA_DIR that holds no database, except for user create", () => {
    const elsewhere = path.join(cwd, "not-the-server");
    const run = cli(["org", "list"], { DATA_DIR: elsewhere });
    assert.equal(run.status, 1);
    assert.equal(run.stderr, `error: no database at ${path.join(elsewhere, SQLITE_FILE_NAME)}: is DATA_DIR the server's data directory? (Only \`periscope user create\` makes a new one.)\n`);
    assert.equal(existsSync(elsewhere), false);
  });

  it("lets user create make the default ./data before the first start, and says on stderr which database each command opened", () => {
    const file = path.join(cwd, "data", SQLITE_FILE_NAME);
    const created = bare(["user", "create", "--email", "ana@example.com", "--password-stdin"], "owner-pass-1\n");
    assert.equal(created.status, 0, created.stderr);
    assert.equal(created.stdout, 'Created ana@example.com (id 1), owner of the organisation "default".\n');
    assert.equal(created.stderr, `Database: SQLite at ${file} (a new database: DATA_DIR and DATABASE_URL are not set, so the default ./data)\n`);
    assert.ok(existsSync(file));

    // stdout stays the command's output alone: the token, for TOKEN=$(...).
    const token = bare(["token", "create", "--email", "ana@example.com", "--scopes", "org:read"]);
    assert.equal(token.status, 0, token.stderr);
    assert.match(token.stdout, /^sntryu_[0-9a-f]{64}\n$/);
    assert.equal(token.stderr, `Database: SQLite at ${file} (DATA_DIR and DATABASE_URL are not set: the default ./data)\n`);
  });
});

function accountSuite(engine: string, setup: () => Promise<{ env: Record<string, string>; open: () => Promise<Storage>; cleanup: () => Promise<void> }>) {
  describe(`periscope CLI administers accounts (${engine})`, () => {
    let env: Record<string, string>;
    let storage: Storage;
    let cleanup: () => Promise<void>;

    before(async () => {
      const made = await setup();
      env = made.env;
      cleanup = made.cleanup;
      // Nothing exists yet: the CLI comes first, before the server ever started.
      const first = cli(["user", "create", "--email", "Owner@Example.com", "--name", "Olga Owner", "--password-stdin"], env, "owner-pass-1\n");
      assert.equal(first.status, 0, first.stderr);
      assert.equal(first.stdout, 'Created owner@example.com (id 1), owner of the organisation "default".\n');
      assert.equal(first.stderr, "");
      storage = await made.open();
    });
    after(async () => {
      await storage?.close();
      await cleanup?.();
    });

    const memberOf = async (email: string) => {
      const organization = (await storage.organizations.getBySlug("default"))!;
      const user = (await storage.accounts.users.getByEmail(email))!;
      return { organization, user, member: await storage.accounts.members.get(organization.id, user.id) };
    };

    it("makes the first account owner of the default organisation, which it creates with its team and project", async () => {
      assert.equal(await storage.accounts.users.count(), 1);
      const { organization, user, member } = await memberOf("owner@example.com");
      assert.deepEqual([user.email, user.name], ["owner@example.com", "Olga Owner"]);
      assert.equal(member?.role, "owner");
      assert.equal(organization.name, "Default organization");
      assert.ok(await storage.projects.getBySlug(organization.id, "default"));
      const team = (await storage.accounts.teams.getBySlug(organization.id, "default"))!;
      assert.deepEqual((await storage.accounts.teams.listMembers(team.id)).map((m) => m.user.email), ["owner@example.com"]);
      assert.ok(await verifyPassword("owner-pass-1", (await storage.accounts.users.passwordHashOf(user.id))!));
      const audit = await storage.accounts.audit.list(organization.id, 50);
      const added = audit.find((entry) => entry.event === "member.add" && entry.targetId === member!.id);
      assert.deepEqual(
        added && { actorUserId: added.actorUserId, actorLabel: added.actorLabel, data: added.data },
        { actorUserId: null, actorLabel: "cli", data: { email: "owner@example.com", role: "owner" } },
      );
    });

    it("adds later accounts to --org with --role (member by default), never echoing the password", async () => {
      const viewer = cli(["user", "create", "--email", "vic@example.com", "--role", "viewer", "--org", "default", "--password-stdin"], env, "viewer-pass-1\r\n");
      assert.equal(viewer.status, 0, viewer.stderr);
      assert.equal(viewer.stdout, 'Created vic@example.com (id 2), viewer of the organisation "default".\n');
      const member = cli(["user", "create", "--email=mia@example.com", "--password", "member-pass-1"], env);
      assert.equal(member.status, 0, member.stderr);
      assert.equal(member.stdout, 'Created mia@example.com (id 3), member of the organisation "default".\n');
      for (const run of [viewer, member]) assert.doesNotMatch(run.stdout + run.stderr, /pass-1/);

      const vic = await memberOf("vic@example.com");
      assert.deepEqual([vic.user.name, vic.member?.role], ["vic", "viewer"]);
      // The trailing CRLF of piped input is not part of the password.
      assert.ok(await verifyPassword("viewer-pass-1", (await storage.accounts.users.passwordHashOf(vic.user.id))!));
      assert.equal((await memberOf("mia@example.com")).member?.role, "member");
      assert.equal(await storage.accounts.users.count(), 3);
    });

    it("refuses a taken email and an unknown organisation, exit code 1, creating nothing", async () => {
      const duplicate = cli(["user", "create", "--email", "VIC@example.com", "--password-stdin"], env, "another-pass\n");
      assert.equal(duplicate.status, 1);
      assert.equal(duplicate.stdout, "");
      assert.equal(duplicate.stderr, "error: a user with the email vic@example.com already exists\n");
      const noOrg = cli(["user", "create", "--email", "nia@example.com", "--org", "acme", "--password-stdin"], env, "another-pass\n");
      assert.equal(noOrg.status, 1);
      assert.equal(noOrg.stderr, 'error: no organisation with the slug "acme" (see `periscope org list`)\n');
      assert.equal(await storage.accounts.users.count(), 3);
      assert.equal(await storage.accounts.users.getByEmail("nia@example.com"), null);
    });

    it("resets a password: the new one verifies, the old one not, and every session of the person ends", async () => {
      const { user } = await memberOf("mia@example.com");
      const other = (await memberOf("vic@example.com")).user;
      const expiresAt = Date.now() + 3_600_000;
      for (const secret of ["mia-laptop", "mia-phone"]) {
        await storage.accounts.loginSessions.create({ userId: user.id, tokenHash: digestOf(secret), csrfToken: secret, expiresAt });
      }
      await storage.accounts.loginSessions.create({ userId: other.id, tokenHash: digestOf("vic-laptop"), csrfToken: "x", expiresAt });

      const run = cli(["user", "reset-password", "--email", "Mia@Example.com", "--password-stdin"], env, "brand-new-pass\n");
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, "Password of mia@example.com changed; their login sessions have ended.\n");
      assert.doesNotMatch(run.stdout + run.stderr, /brand-new-pass/);

      const hash = (await storage.accounts.users.passwordHashOf(user.id))!;
      assert.equal(await verifyPassword("brand-new-pass", hash), true);
      assert.equal(await verifyPassword("member-pass-1", hash), false);
      const now = Date.now();
      assert.equal(await storage.accounts.loginSessions.getValid(digestOf("mia-laptop"), now), null);
      assert.equal(await storage.accounts.loginSessions.getValid(digestOf("mia-phone"), now), null);
      assert.equal((await storage.accounts.loginSessions.getValid(digestOf("vic-laptop"), now))?.userId, other.id, "another person's session stays");

      const unknown = cli(["user", "reset-password", "--email", "zed@example.com", "--password-stdin"], env, "brand-new-pass\n");
      assert.equal(unknown.status, 1);
      assert.equal(unknown.stderr, "error: no user with the email zed@example.com\n");
    });

    it("creates a token: only the token on stdout, its digest stored with exactly the requested scopes", async () => {
      const run = cli(["token", "create", "--email", "owner@example.com", "--scopes", "project:releases, org:read,project:releases", "--name", "CI releases"], env);
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^sntryu_[0-9a-f]{64}\n$/);
      assert.equal(run.stderr, "");
      const token = run.stdout.trim();
      const stored = await storage.accounts.tokens.getByHash(digestOf(token));
      const { organization, user } = await memberOf("owner@example.com");
      assert.deepEqual(
        stored && { userId: stored.userId, name: stored.name, scopes: stored.scopes, last: stored.tokenLastChars },
        { userId: user.id, name: "CI releases", scopes: ["project:releases", "org:read"], last: token.slice(-4) },
      );
      const audit = (await storage.accounts.audit.list(organization.id, 50)).find((entry) => entry.event === "token.create");
      assert.deepEqual(
        audit && { actorLabel: audit.actorLabel, targetId: audit.targetId, data: audit.data },
        { actorLabel: "cli", targetId: stored!.id, data: { name: "CI releases", scopes: ["project:releases", "org:read"], owner: "owner@example.com" } },
      );

      // A scope beyond the person's role: the token is made, and stderr says it cannot use it.
      const viewer = cli(["token", "create", "--email", "vic@example.com", "--scopes", "event:read,project:write"], env);
      assert.equal(viewer.status, 0, viewer.stderr);
      assert.match(viewer.stdout, /^sntryu_[0-9a-f]{64}\n$/);
      assert.equal(viewer.stderr, 'note: as viewer of "default", vic@example.com does not hold project:write, so the token cannot use it there\n');
      assert.equal((await storage.accounts.tokens.getByHash(digestOf(viewer.stdout.trim())))?.name, "Command line");

      const unknown = cli(["token", "create", "--email", "zed@example.com", "--scopes", "org:read"], env);
      assert.equal(unknown.status, 1);
      assert.equal(unknown.stdout, "");
      assert.equal(unknown.stderr, "error: no user with the email zed@example.com\n");
    });

    it("lists organisations with their member counts, as a table or JSON", async () => {
      const organization = (await storage.organizations.getBySlug("default"))!;
      await storage.organizations.create({ slug: "acme", name: "Acme Corp" });
      const acme = (await storage.organizations.getBySlug("acme"))!;
      const table = cli(["org", "list"], env);
      assert.equal(table.status, 0, table.stderr);
      assert.equal(
        table.stdout,
        [
          "SLUG     NAME                  ID  MEMBERS",
          `default  Default organization  ${organization.id.padEnd(2)}  3`,
          `acme     Acme Corp             ${acme.id.padEnd(2)}  0`,
          "",
        ].join("\n"),
      );
      const json = cli(["org", "list", "--json"], env);
      assert.equal(json.status, 0, json.stderr);
      assert.deepEqual(JSON.parse(json.stdout), [
        { id: organization.id, slug: "default", name: "Default organization", memberCount: 3, dateCreated: organization.dateCreated },
        { id: acme.id, slug: "acme", name: "Acme Corp", memberCount: 0, dateCreated: acme.dateCreated },
      ]);

      // Now that accounts exist, --org works for another organisation too.
      const joined = cli(["user", "create", "--email", "ada@acme.example", "--org", "acme", "--role", "admin", "--password-stdin"], env, "acme-pass-1\n");
      assert.equal(joined.status, 0, joined.stderr);
      assert.equal(joined.stdout, 'Created ada@acme.example (id 4), admin of the organisation "acme".\n');
      assert.deepEqual(
        (await storage.accounts.members.listByOrganization(acme.id)).map((m) => [m.user.email, m.role]),
        [["ada@acme.example", "admin"]],
      );
    });

    it("creates an organisation with a default team, owned by an existing account, and audits it", async () => {
      const run = cli(["org", "create", "--name", "Globex Corp", "--owner", "OWNER@example.com"], env);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout, "globex-corp\n");
      const globex = (await storage.organizations.getBySlug("globex-corp"))!;
      assert.equal(globex.name, "Globex Corp");
      const members = await storage.accounts.members.listByOrganization(globex.id);
      assert.deepEqual(members.map((m) => [m.user.email, m.role]), [["owner@example.com", "owner"]]);
      const teams = await storage.accounts.teams.listByOrganization(globex.id);
      assert.deepEqual(teams.map((t) => t.slug), ["default"]);
      assert.deepEqual((await storage.accounts.teams.listMembers(teams[0]!.id)).map((m) => m.user.email), ["owner@example.com"]);
      assert.deepEqual(
        (await storage.accounts.audit.list(globex.id, 10)).map((entry) => [entry.event, entry.actorLabel]).sort(),
        [["member.add", "cli"], ["org.create", "cli"]],
      );

      const taken = cli(["org", "create", "--name", "Globex", "--slug", "globex-corp", "--owner", "owner@example.com"], env);
      assert.equal(taken.status, 1);
      assert.equal(taken.stderr, 'error: an organization with the slug "globex-corp" already exists\n');
      const nobody = cli(["org", "create", "--name", "Initech", "--owner", "zed@example.com"], env);
      assert.equal(nobody.status, 1);
      assert.equal(nobody.stderr, "error: no user with the email zed@example.com\n");
      assert.equal(await storage.organizations.getBySlug("initech"), null);
    });
  });
}

accountSuite("SQLite", async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "periscope-cli-"));
  return {
    env: { DATA_DIR: dataDir },
    open: async () => createSqliteStorage(dataDir),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});

if (postgresReachable) {
  accountSuite("PostgreSQL", async () => {
    const schema: TestSchema = await freshSchema();
    // DATA_DIR too, as on a real server: the CLI must pick PostgreSQL because DATABASE_URL is set.
    const dataDir = mkdtempSync(path.join(tmpdir(), "periscope-cli-pg-"));
    return {
      env: { DATABASE_URL: schema.url, DATA_DIR: dataDir },
      open: () => createPostgresStorage({ url: schema.url, poolSize: 2 }),
      cleanup: async () => {
        await schema.drop();
        const untouched = !existsSync(path.join(dataDir, SQLITE_FILE_NAME));
        rmSync(dataDir, { recursive: true, force: true });
        assert.ok(untouched, "with DATABASE_URL set the CLI leaves DATA_DIR's SQLite file alone");
      },
    };
  });
}
