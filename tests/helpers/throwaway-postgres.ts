/**
 * A throwaway PostgreSQL cluster of its own (initdb in a temporary directory, its own port), for
 * tests that stop and start the database: the machine's shared cluster is never stopped. Needs the
 * PostgreSQL server binaries and root (the server runs as the `postgres` user); `unavailableReason`
 * says why it cannot run here.
 */
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const BIN = "/usr/lib/postgresql/15/bin";

export function unavailableReason(): string | null {
  if (!existsSync(path.join(BIN, "initdb"))) return `PostgreSQL server binaries not found in ${BIN}`;
  if (process.getuid?.() !== 0) return "needs root to run a throwaway cluster as the postgres user";
  return null;
}

export interface ThrowawayCluster {
  url: string;
  start(): void;
  stop(): void;
  destroy(): void;
}

function asPostgres(command: string, args: string[]): void {
  const quoted = [path.join(BIN, command), ...args].map((arg) => `'${arg.replace(/'/g, "'\\''")}'`).join(" ");
  execFileSync("su", ["postgres", "-c", quoted], { stdio: "pipe", timeout: 60_000 });
}

export function createThrowawayCluster(): ThrowawayCluster {
  const dir = mkdtempSync(path.join(tmpdir(), "periscope-pg-"));
  const postgresUid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const postgresGid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  chownSync(dir, postgresUid, postgresGid);
  const data = path.join(dir, "data");
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const cluster: ThrowawayCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => asPostgres("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]),
    stop: () => asPostgres("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    destroy() {
      try {
        cluster.stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}
