/**
 * What differs between the hosts the harness runs: the plain host (no
 * engine), the Restate endpoint (the harness starts a real restate-server,
 * registers the endpoint once and invokes the loop through the ingress once
 * per episode; Restate retries it after each kill) and the DBOS host (DBOS's
 * system database on the same PostgreSQL; the host starts or joins the
 * workflow itself).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type InvocationOutcome, type RestateServer, freePort, invokeHandler, startRestateServer } from "@agent-tools/restate/testing";
import type { FaultHostConfig } from "./host-config.js";
import type { HostCommand, HostProcess } from "./host-process.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../..");

/** The engine a host runs its loop in. */
export type FaultEngine = "none" | "restate" | "dbos";

/** The engine-specific steps of an episode. */
export interface EngineDriver {
  readonly engine: FaultEngine;
  /** The command line of a host for `config`. */
  command(config: FaultHostConfig): HostCommand;
  /** After a host printed `ready` (Restate: register once, invoke once per episode). */
  onReady(config: FaultHostConfig): Promise<void>;
  /** After the host printed `finished`: wait for the engine's end of the run and stop a host that stays up. */
  afterFinished(host: HostProcess): Promise<void>;
  close(): Promise<void>;
}

function tsxCommand(script: string, config: FaultHostConfig, env: NodeJS.ProcessEnv): HostCommand {
  return {
    command: process.execPath,
    args: ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, script), JSON.stringify(config)],
    cwd: repositoryRoot,
    env: { ...process.env, ...env },
  };
}

function plainDriver(): EngineDriver {
  return {
    engine: "none",
    command: (config) => tsxCommand("fault-host.ts", config, {}),
    onReady: async () => undefined,
    afterFinished: async () => undefined,
    close: async () => undefined,
  };
}

function dbosDriver(systemDatabaseUrl: string): EngineDriver {
  return {
    engine: "dbos",
    command: (config) => tsxCommand("dbos-host.ts", config, { DBOS_SYSTEM_DATABASE_URL: systemDatabaseUrl }),
    onReady: async () => undefined,
    afterFinished: async () => undefined,
    close: async () => undefined,
  };
}

async function restateDriver(): Promise<EngineDriver> {
  const server: RestateServer = await startRestateServer({ retryIntervalMs: 100 });
  const port = await freePort();
  let registered = false;
  const invocations = new Map<string, Promise<InvocationOutcome>>();
  return {
    engine: "restate",
    command: (config) => tsxCommand("restate-host.ts", config, { RESTATE_ENDPOINT_PORT: String(port) }),
    async onReady(config) {
      if (!registered) {
        await server.registerDeployment(`http://127.0.0.1:${port}`);
        registered = true;
      }
      if (!invocations.has(config.runId)) {
        const outcome = invokeHandler(server.ingressUrl, {
          service: "FaultLoop",
          handler: "run",
          input: { runId: config.runId },
          idempotencyKey: config.runId,
        });
        // Awaited in afterFinished; a rejection before then must not go unhandled.
        outcome.catch(() => undefined);
        invocations.set(config.runId, outcome);
      }
    },
    async afterFinished(host) {
      const pending = [...invocations.values()];
      invocations.clear();
      for (const outcome of pending) {
        const answer = await outcome;
        if (!answer.ok) throw new Error(`the Restate invocation failed: HTTP ${answer.status} ${answer.body}`);
      }
      host.kill();
      await host.exited;
    },
    close: () => server.close(),
  };
}

/** The driver of `engine`; DBOS needs its system database's URL. */
export async function createEngineDriver(engine: FaultEngine, systemDatabaseUrl?: string): Promise<EngineDriver> {
  if (engine === "none") return plainDriver();
  if (engine === "restate") return restateDriver();
  if (systemDatabaseUrl === undefined) throw new Error("the DBOS engine needs a PostgreSQL system database URL");
  return dbosDriver(systemDatabaseUrl);
}
