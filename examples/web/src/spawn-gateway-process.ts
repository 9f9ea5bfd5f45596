/**
 * Starts the gateway as a process of its own (`start-web --gateway-only`), so
 * the default `npm run web` keeps the topology visible: the gateway process
 * loads no registry, no SDK and no tool package, and the executing host
 * connects to it over WebSocket like a remote host would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A gateway child process and the URL it listens on. */
export interface GatewayProcess {
  /** e.g. `http://127.0.0.1:8787`. */
  url: string;
  child: ChildProcess;
  /** Ends the gateway (SIGTERM, then SIGKILL after 5 s) and waits for it. */
  stop(): Promise<void>;
}

// From the sources (tsx) this module is a .ts file; built, a .js one beside start-web.js.
const START_WEB = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./start-web.ts" : "./start-web.js", import.meta.url));
const URL_LINE = /^Gateway at (http:\/\/\S+) /m;

/**
 * Spawns `start-web --gateway-only` with this process's Node flags (tsx and
 * the source condition when run from the sources) and resolves once it
 * printed its URL. Its other output goes to this process's stderr.
 */
export function spawnGatewayProcess(options: { port: number; pageToken: string; hostToken: string; startupTimeoutMs?: number }): Promise<GatewayProcess> {
  // The tokens go through the environment, never the command line (which `ps` shows to every user).
  const child = spawn(process.execPath, [...process.execArgv, START_WEB, "--gateway-only", "--port", String(options.port)], {
    env: { ...process.env, AGENT_TOOLS_WEB_TOKEN: options.pageToken, AGENT_TOOLS_WEB_HOST_TOKEN: options.hostToken },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`The gateway process printed no URL within ${(options.startupTimeoutMs ?? 60_000) / 1000} s. Its output: ${output.trim()}`));
    }, options.startupTimeoutMs ?? 60_000);
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      output += chunk;
      const match = URL_LINE.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, child, stop });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The gateway process ended before it listened (exit ${code ?? signal}). Its output: ${output.trim()}`));
    });
  });
}
