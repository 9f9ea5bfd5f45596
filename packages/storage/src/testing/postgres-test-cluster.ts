/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a temp directory,
 * `pg_ctl start` on a free port, one database per test, `pg_ctl stop` and
 * removal of the directory at the end (and at process exit as a safety net).
 * When the process runs as root the server binaries run as the `postgres`
 * user, since PostgreSQL refuses root.
 */
import { type SpawnOptions, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** Options of {@link startPostgresTestCluster}. */
export interface PostgresTestClusterOptions {
  /** Directory of `initdb`, `pg_ctl`, `postgres`; default: `$AGENT_TOOLS_POSTGRES_BIN`, else the newest `/usr/lib/postgresql/<version>/bin`. */
  binDir?: string;
  /** The OS user that runs the server when this process is root; default `postgres`. */
  user?: string;
}

/** A running throwaway cluster. */
export interface PostgresTestCluster {
  /** The TCP port on 127.0.0.1. */
  readonly port: number;
  /** The temp directory holding the data directory, socket and log. */
  readonly directory: string;
  /** A URL for `database` (default `postgres`) as the superuser `postgres`, trust auth. */
  connectionString(database?: string): string;
  /** Creates a fresh, uniquely named database and returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  /** Stops the server (smart shutdown, fast after 5 s) and removes the directory. Idempotent. */
  stop(): Promise<void>;
}

/** The PostgreSQL binary directory this machine offers, if any. */
export function findPostgresBinDir(): string | undefined {
  const fromEnvironment = process.env.AGENT_TOOLS_POSTGRES_BIN;
  if (fromEnvironment && fs.existsSync(path.join(fromEnvironment, "pg_ctl"))) return fromEnvironment;
  const root = "/usr/lib/postgresql";
  let versions: string[] = [];
  try {
    versions = fs.readdirSync(root).filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  versions.sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const binDir = path.join(root, version, "bin");
    if (fs.existsSync(path.join(binDir, "pg_ctl")) && fs.existsSync(path.join(binDir, "initdb"))) return binDir;
  }
  return undefined;
}

function lookupUser(user: string): { uid: number; gid: number } {
  const line = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.split(":")[0] === user);
  if (line === undefined) throw new Error(`PostgreSQL refuses to run as root and there is no "${user}" user to run it as.`);
  const fields = line.split(":");
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function run(command: string, args: string[], options: SpawnOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    // stdio is ignored: the postmaster inherits pg_ctl's descriptors and would hold pipes open.
    const child = spawn(command, args, { ...options, stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} ${args[0] ?? ""} exited with ${code ?? signal}`)),
    );
  });
}

/**
 * Starts a throwaway cluster. Rejects (after cleaning up) when the binaries
 * are missing or the server does not start; the log is in the error message.
 *
 * @example
 * const cluster = await startPostgresTestCluster();
 * try {
 *   const url = await cluster.createDatabase();
 *   const storage = await openPostgresStorage({ connectionString: url });
 *   await storage.close();
 * } finally {
 *   await cluster.stop();
 * }
 */
export async function startPostgresTestCluster(options: PostgresTestClusterOptions = {}): Promise<PostgresTestCluster> {
  const binDir = options.binDir ?? findPostgresBinDir();
  if (binDir === undefined) throw new Error("No PostgreSQL server binaries found (set AGENT_TOOLS_POSTGRES_BIN).");
  const identity = process.getuid?.() === 0 ? lookupUser(options.user ?? "postgres") : undefined;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-pg-"));
  const dataDir = path.join(directory, "data");
  const logFile = path.join(directory, "server.log");
  const spawnOptions: SpawnOptions = { cwd: directory, env: { ...process.env, LC_ALL: "C" }, ...identity };
  if (identity !== undefined) fs.chownSync(directory, identity.uid, identity.gid);
  const pgCtl = path.join(binDir, "pg_ctl");
  let started = false;
  let stopped = false;
  const stopSync = (): void => {
    if (stopped) return;
    stopped = true;
    if (started) spawnSync(pgCtl, ["stop", "-D", dataDir, "-m", "immediate", "-w"], { ...spawnOptions, stdio: "ignore" });
    fs.rmSync(directory, { recursive: true, force: true });
  };
  process.once("exit", stopSync);
  try {
    await run(path.join(binDir, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync"], spawnOptions);
    let port = 0;
    for (let attempt = 0; ; attempt += 1) {
      port = await freePort();
      const serverOptions = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        started = true;
        await run(pgCtl, ["start", "-D", dataDir, "-l", logFile, "-w", "-t", "60", "-o", serverOptions], spawnOptions);
        break;
      } catch (error) {
        started = false;
        if (attempt >= 2) throw error;
      }
    }
    const url = (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`;
    let counter = 0;
    return {
      port,
      directory,
      connectionString: url,
      async createDatabase(prefix = "test") {
        counter += 1;
        const name = `${prefix.replace(/[^a-z0-9_]/gi, "_").toLowerCase()}_${process.pid}_${counter}`;
        const { default: pg } = await import("pg");
        const client = new pg.Client({ connectionString: url() });
        await client.connect();
        try {
          await client.query(`create database "${name}"`);
        } finally {
          await client.end();
        }
        return url(name);
      },
      async stop() {
        if (stopped) return;
        process.removeListener("exit", stopSync);
        if (started) {
          // Smart first: pools that were just ended may still be closing their sockets, and a fast
          // shutdown would hit them with "terminating connection" errors. Fast if a client lingers.
          await run(pgCtl, ["stop", "-D", dataDir, "-m", "smart", "-w", "-t", "5"], spawnOptions).catch(() =>
            run(pgCtl, ["stop", "-D", dataDir, "-m", "fast", "-w"], spawnOptions).catch(() => undefined),
          );
        }
        started = false;
        stopSync();
      },
    };
  } catch (error) {
    let log = "";
    try {
      log = fs.readFileSync(logFile, "utf8").slice(-2000);
    } catch {
      // no log yet
    }
    process.removeListener("exit", stopSync);
    stopSync();
    throw new Error(`Could not start a PostgreSQL test cluster: ${(error as Error).message}${log ? `\n${log}` : ""}`, { cause: error });
  }
}
