/**
 * Uploads the scenario's bundles as a CI pipeline would: a token made with `periscope token create`
 * against the server's database, then the real `sentry-cli sourcemaps upload` (chunk-upload +
 * artifactbundle/assemble) against the running server.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The owner the bench's servers create at first start (PERISCOPE_ADMIN_EMAIL / _PASSWORD). */
export const BENCH_OWNER = { PERISCOPE_ADMIN_EMAIL: "bench@example.com", PERISCOPE_ADMIN_PASSWORD: "bench owner password" } as const;
const SCOPES = "project:releases,project:read,org:read,event:read";

export interface UploadTarget {
  /** The checkout whose CLI and sentry-cli run. */
  root: string;
  baseUrl: string;
  /** The server's database settings (DATA_DIR or DATABASE_URL), for `periscope token create`. */
  databaseEnv: Record<string, string>;
}

/** A token of the bench owner, made by the CLI as the docs tell a CI pipeline to make one. */
export async function createToken(target: UploadTarget): Promise<string> {
  const made = await run(process.execPath, ["bin/periscope.js", "token", "create", "--email", BENCH_OWNER.PERISCOPE_ADMIN_EMAIL, "--scopes", SCOPES, "--name", "bench"], {
    cwd: target.root,
    encoding: "utf8",
    env: { ...process.env, DATA_DIR: "", DATABASE_URL: "", ...target.databaseEnv },
  });
  const token = made.stdout.trim();
  if (!/^sntryu_[0-9a-f]{64}$/.test(token)) throw new Error(`periscope token create printed no token:\n${made.stdout}\n${made.stderr}`);
  return token;
}

/** The slugs sentry-cli names the organisation and project by. */
export async function slugsOf(target: UploadTarget, token: string, projectId: string): Promise<{ org: string; project: string }> {
  const response = await fetch(`${target.baseUrl}/api/0/organizations/`, { headers: { authorization: `Bearer ${token}` } });
  const orgs = (await response.json()) as { slug: string }[];
  for (const { slug } of orgs) {
    const projects = (await (await fetch(`${target.baseUrl}/api/0/organizations/${slug}/projects/`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string; slug: string }[];
    const project = projects.find((candidate) => candidate.id === projectId);
    if (project) return { org: slug, project: project.slug };
  }
  throw new Error(`no organisation of the bench owner holds project ${projectId}`);
}

/** `sentry-cli sourcemaps upload --release <release> <dir>`; the seconds it took. */
export async function sentryCliUpload(target: UploadTarget, token: string, slugs: { org: string; project: string }, release: string, dir: string): Promise<number> {
  const started = performance.now();
  const sentryCli = path.join(target.root, "node_modules", ".bin", "sentry-cli");
  try {
    await run(sentryCli, ["sourcemaps", "upload", "--release", release, dir], {
      env: {
        NODE_ENV: "production",
        PATH: process.env.PATH ?? "",
        HOME: path.dirname(dir),
        SENTRY_URL: target.baseUrl,
        SENTRY_AUTH_TOKEN: token,
        SENTRY_ORG: slugs.org,
        SENTRY_PROJECT: slugs.project,
        SENTRY_LOAD_DOTENV: "0",
        SENTRY_LOG_LEVEL: "warn",
      },
      timeout: 120_000,
      encoding: "utf8",
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`sentry-cli sourcemaps upload failed:\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`);
  }
  return (performance.now() - started) / 1000;
}
