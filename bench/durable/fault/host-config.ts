/**
 * What the harness tells a host process (one JSON argument), and the files
 * a run leaves in its directory.
 */
import path from "node:path";

/** Where the ledger lives: a SQLite file in `dataDir`, a PostgreSQL database, or no ledger at all (the control run). */
export type LedgerBackend = "sqlite" | "postgres" | "none";

/** One host process's configuration. */
export interface FaultHostConfig {
  /** The episode's working directory (the tools' workspace; `effects.log` is here). */
  readonly workdir: string;
  /** The SDK's data directory (the SQLite ledger file is here). */
  readonly dataDir: string;
  readonly backend: LedgerBackend;
  /** The PostgreSQL URL when `backend` is `postgres`. */
  readonly connectionString?: string;
  /** The durable run id of the episode (the same on every restart). */
  readonly runId: string;
  /** The JSON-lines file each returned result is appended to. */
  readonly resultsLog: string;
  /** The counting MCP server's counter file. */
  readonly counterFile: string;
  /** Groups of the scripted loop (5 calls each, plus a Glob). */
  readonly groups: number;
}

/** One line of `results.log`: a result the host got back from `executeToolCall`. */
export interface ResultLine {
  readonly runId: string;
  readonly callId: string;
  /** SHA-256 of the result as canonical JSON (keys sorted). */
  readonly resultHash: string;
  readonly isError: boolean;
  /** The error code when `isError`. */
  readonly code?: string;
  /** The host process that got it (one per restart). */
  readonly pid: number;
}

/** The paths of one episode under `directory`. */
export function episodePaths(directory: string): { workdir: string; resultsLog: string; counterFile: string } {
  return {
    workdir: path.join(directory, "work"),
    resultsLog: path.join(directory, "results.log"),
    counterFile: path.join(directory, "mcp-counter.log"),
  };
}

/** Reads and checks the host's JSON argument. */
export function parseHostConfig(text: string | undefined): FaultHostConfig {
  if (text === undefined) throw new Error("usage: fault-host.ts '<json config>'");
  const config = JSON.parse(text) as FaultHostConfig;
  for (const key of ["workdir", "dataDir", "runId", "resultsLog", "counterFile"] as const) {
    if (typeof config[key] !== "string" || config[key] === "") throw new Error(`fault host: ${key} is missing`);
  }
  if (!["sqlite", "postgres", "none"].includes(config.backend)) throw new Error(`fault host: unknown backend ${String(config.backend)}`);
  if (config.backend === "postgres" && !config.connectionString) throw new Error("fault host: postgres needs connectionString");
  return config;
}
