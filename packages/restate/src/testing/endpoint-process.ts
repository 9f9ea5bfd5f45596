/**
 * A Restate endpoint in a child process, so a test can SIGKILL it as a host
 * dies and start it again on the same port (the deployment's URI stays
 * valid). The entry script listens on the port {@link endpointPort} answers:
 * `restate.endpoint().bind(service).listen(await endpointPort())`.
 *
 * A `standby` child loads its modules and opens what it opens at start, then
 * waits before listening until `activate()`: a restart after a kill is then
 * a few milliseconds instead of the seconds a cold Node start with its
 * imports takes, so many kills fit in a short run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { freePort, waitUntil } from "./free-port.js";
import { installPromiseWithResolvers } from "../promise-with-resolvers.js";

/** Options of {@link startEndpointProcess}. */
export interface StartEndpointProcessOptions {
  /** The script the child runs (a `.ts` file runs through tsx with the workspace's source condition). */
  readonly entry: string;
  /** The port to listen on; default a free one. Pass the previous `port` to restart the same deployment. */
  readonly port?: number;
  readonly args?: readonly string[];
  /** Added to the parent's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Node options before the entry; default `--import tsx --conditions=@agent-tools/source` for a `.ts` entry, none else. */
  readonly nodeArgs?: readonly string[];
  readonly cwd?: string;
  /** How long to wait for the child to be ready (standby) or listening; default 60 s. */
  readonly startTimeoutMs?: number;
  /** Load, then wait for `activate()` before listening (see the module's comment); default false. */
  readonly standby?: boolean;
}

/** A running endpoint child (see {@link startEndpointProcess}). */
export interface EndpointProcess {
  readonly pid: number;
  readonly port: number;
  /** `http://127.0.0.1:<port>`: the deployment URI to register. */
  readonly url: string;
  /** What the child printed so far. */
  output(): string;
  /** True once the child exited. */
  exited(): boolean;
  /** True while a standby child waits for {@link EndpointProcess.activate}. */
  standingBy(): boolean;
  /** Lets a standby child listen, and resolves once its port accepts connections (does nothing for a listening child). */
  activate(): Promise<void>;
  /** SIGKILLs the child (a host dying at an arbitrary instant) and resolves once it is gone. */
  kill(): Promise<void>;
}

/**
 * Starts the endpoint child and resolves once its port accepts connections.
 *
 * @example
 * ```ts
 * const endpoint = await startEndpointProcess({ entry: "/path/to/endpoint.ts" });
 * await server.registerDeployment(endpoint.url);
 * await endpoint.kill();
 * const again = await startEndpointProcess({ entry: "/path/to/endpoint.ts", port: endpoint.port });
 * ```
 */
export async function startEndpointProcess(options: StartEndpointProcessOptions): Promise<EndpointProcess> {
  const port = options.port ?? (await freePort());
  const nodeArgs = options.nodeArgs ?? (options.entry.endsWith(".ts") ? ["--import", "tsx", "--conditions=@agent-tools/source"] : []);
  const standby = options.standby === true;
  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const child = spawn(process.execPath, [...nodeArgs, options.entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...options.env, [PORT_VARIABLE]: String(port), [STANDBY_VARIABLE]: standby ? "1" : "" },
  });
  let waiting = standby;
  // A write to a child that was just killed fails with EPIPE; activate() then reports the child gone.
  child.stdin?.on("error", () => {});
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-64_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const handle: EndpointProcess = {
    pid: child.pid ?? -1,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited: () => hasExited(child),
    standingBy: () => waiting,
    activate: async () => {
      if (!waiting) return;
      waiting = false;
      child.stdin?.write("listen\n");
      await waitUntil(async () => !hasExited(child) && (await accepts(port)), `the endpoint on port ${port}`, timeoutMs);
    },
    kill: async () => {
      if (!hasExited(child)) child.kill("SIGKILL");
      await gone;
    },
  };
  try {
    if (standby) await waitUntil(async () => !hasExited(child) && output.includes(STANDBY_LINE), "the endpoint to load", timeoutMs);
    else await waitUntil(async () => !hasExited(child) && (await accepts(port)), `the endpoint on port ${port}`, timeoutMs);
  } catch (error) {
    await handle.kill();
    throw new Error(`the endpoint did not start: ${String(error)}\n${output}`);
  }
  return handle;
}

const PORT_VARIABLE = "RESTATE_ENDPOINT_PORT";
const STANDBY_VARIABLE = "RESTATE_ENDPOINT_STANDBY";
const STANDBY_LINE = "restate-endpoint-standby";

/**
 * In the endpoint child: the port to listen on. For a standby child, first
 * reports that it is loaded and waits until the harness lets it listen.
 * Installs `Promise.withResolvers` on Node 20 (see {@link installPromiseWithResolvers}).
 *
 * @example
 * ```ts
 * await restate.endpoint().bind(service).listen(await endpointPort());
 * ```
 */
export async function endpointPort(): Promise<number> {
  installPromiseWithResolvers();
  const port = Number(process.env[PORT_VARIABLE]);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`${PORT_VARIABLE} must be the port to listen on (startEndpointProcess sets it)`);
  if (process.env[STANDBY_VARIABLE] !== "1") return port;
  await new Promise<void>((resolve) => {
    let input = "";
    const onData = (chunk: Buffer) => {
      input += chunk.toString("utf8");
      if (!input.includes("\n")) return;
      process.stdin.off("data", onData);
      process.stdin.pause();
      resolve();
    };
    process.stdin.on("data", onData);
    process.stdout.write(`${STANDBY_LINE}\n`);
  });
  return port;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
