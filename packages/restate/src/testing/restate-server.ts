/**
 * The real Restate server for tests and benchmarks: `startRestateServer()`
 * runs the `restate-server` binary of the npm package
 * `@restatedev/restate-server` on free ports of 127.0.0.1 with a fresh base
 * directory, one partition, telemetry off and a short, flat invocation retry
 * policy (so an invocation whose endpoint was killed is retried within a
 * fraction of a second once it is back).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, waitUntil } from "./free-port.js";

/** Options of {@link startRestateServer}. */
export interface StartRestateServerOptions {
  /** The server's base directory; default a fresh temporary one, removed by `close()`. */
  readonly baseDir?: string;
  /** Retry interval of invocations (a killed endpoint, a failing step); default 100 ms. */
  readonly retryIntervalMs?: number;
  /** How long to wait for the server to answer; default 30 s. */
  readonly startTimeoutMs?: number;
}

/** A running restate-server (see {@link startRestateServer}). */
export interface RestateServer {
  /** Base URL of the HTTP ingress, e.g. `http://127.0.0.1:41234`. */
  readonly ingressUrl: string;
  /** Base URL of the admin API. */
  readonly adminUrl: string;
  readonly baseDir: string;
  readonly pid: number;
  /** What the server printed so far (its log). */
  log(): string;
  /** Registers (or re-registers) the endpoint at `uri` (`POST /deployments`), so its services can be invoked. */
  registerDeployment(uri: string): Promise<void>;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes a base directory it made. */
  close(): Promise<void>;
}

/** The `restate-server` executable of this platform, resolved through `@restatedev/restate-server`. */
export function restateServerBinary(): string {
  const require = createRequire(import.meta.url);
  const launcher = createRequire(require.resolve("@restatedev/restate-server/package.json"));
  return launcher.resolve(`@restatedev/restate-server-${process.platform}-${process.arch}/bin/restate-server`);
}

/**
 * Starts a restate-server and resolves once its ingress and admin API answer.
 *
 * @example
 * ```ts
 * const server = await startRestateServer();
 * await server.registerDeployment("http://127.0.0.1:9080");
 * await server.close();
 * ```
 */
export async function startRestateServer(options: StartRestateServerOptions = {}): Promise<RestateServer> {
  const ownsBaseDir = options.baseDir === undefined;
  const baseDir = options.baseDir ?? (await mkdtemp(path.join(tmpdir(), "restate-server-")));
  const [ingressPort, adminPort, nodePort] = [await freePort(), await freePort(), await freePort()];
  const retry = `${options.retryIntervalMs ?? 100}ms`;
  const configFile = path.join(baseDir, "restate-test.toml");
  await writeFile(configFile, serverConfig(retry));
  const child = spawn(restateServerBinary(), ["--config-file", configFile, "--base-dir", baseDir, "--listen-mode", "tcp", "--no-logo"], {
    cwd: baseDir,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
      RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
      RESTATE_BIND_ADDRESS: `127.0.0.1:${nodePort}`,
      RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${nodePort}/`,
      RESTATE_NODE_NAME: "agent-tools-test",
    },
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-64_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ingressUrl = `http://127.0.0.1:${ingressPort}`;
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const close = async () => {
    await stop(child, exited);
    if (ownsBaseDir) await rm(baseDir, { recursive: true, force: true });
  };
  try {
    await waitUntil(
      async () => child.exitCode === null && (await fetch(`${adminUrl}/health`)).ok && (await fetch(`${ingressUrl}/restate/health`)).ok,
      "restate-server to answer",
      options.startTimeoutMs ?? 30_000,
    );
  } catch (error) {
    await close();
    throw new Error(`restate-server did not start: ${String(error)}\n${output}`);
  }
  return {
    ingressUrl,
    adminUrl,
    baseDir,
    pid: child.pid ?? -1,
    log: () => output,
    registerDeployment: (uri) => registerDeployment(adminUrl, uri),
    close,
  };
}

function serverConfig(retry: string): string {
  return [
    "disable-telemetry = true",
    "default-num-partitions = 1",
    'rocksdb-total-memory-size = "256.0 MiB"',
    'log-filter = "warn"',
    "",
    "[default-retry-policy]",
    `initial-interval = "${retry}"`,
    "exponentiation-factor = 1.0",
    `max-interval = "${retry}"`,
    "max-attempts = 100000",
    'on-max-attempts = "kill"',
    "",
  ].join("\n");
}

async function registerDeployment(adminUrl: string, uri: string): Promise<void> {
  const response = await fetch(`${adminUrl}/deployments`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ uri, force: true }),
  });
  if (!response.ok) throw new Error(`registering ${uri} failed: HTTP ${response.status} ${await response.text()}`);
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}
