/**
 * A Restate endpoint in a child process, so a test can SIGKILL it as a host
 * dies and start it again on the same port (the deployment's URI stays
 * valid). The entry script listens on the port in `RESTATE_ENDPOINT_PORT`
 * (e.g. `restate.endpoint().bind(service).listen(Number(process.env.RESTATE_ENDPOINT_PORT))`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { freePort, waitUntil } from "./free-port.js";

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
  /** How long to wait for the port to accept connections; default 30 s. */
  readonly startTimeoutMs?: number;
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
  const child = spawn(process.execPath, [...nodeArgs, options.entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...options.env, RESTATE_ENDPOINT_PORT: String(port) },
  });
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
    kill: async () => {
      if (!hasExited(child)) child.kill("SIGKILL");
      await gone;
    },
  };
  try {
    await waitUntil(async () => !hasExited(child) && (await accepts(port)), `the endpoint on port ${port}`, options.startTimeoutMs ?? 30_000);
  } catch (error) {
    await handle.kill();
    throw new Error(`the endpoint did not start: ${String(error)}\n${output}`);
  }
  return handle;
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
