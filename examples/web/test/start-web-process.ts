/** Test helper: runs the start-web command (what `npm run web` starts) as a real process. */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "./gateway-test-client.js";

const EXAMPLE_DIR = fileURLToPath(new URL("..", import.meta.url));
const START_WEB = path.join(EXAMPLE_DIR, "src", "start-web.ts");

/** A running start-web command and what it printed. */
export interface StartWebProcess {
  child: ChildProcess;
  output(): string;
  /** Waits for the printed `Open <url>/?token=...` line. */
  opened(): Promise<{ gatewayUrl: string; token: string }>;
  /** SIGINT (Ctrl-C), then the exit code. */
  interrupt(): Promise<number | null>;
  /** SIGKILL if still running. */
  kill(): void;
}

/** Starts `start-web` from the sources with `args`; `env` is merged over this process's (model variables cleared unless given). */
export function spawnStartWeb(args: string[], env: Record<string, string> = {}): StartWebProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=@agent-tools/source", START_WEB, ...args], {
    cwd: EXAMPLE_DIR,
    env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: "", OPENAI_MODEL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => output,
    async opened() {
      const match = await waitFor(
        () =>
          /Open (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(output) ?? (child.exitCode !== null ? new Error(`start-web exited: ${output}`) : undefined),
        "the URL start-web prints",
        120_000,
      );
      if (match instanceof Error) throw match;
      return { gatewayUrl: match[1]!, token: decodeURIComponent(match[2]!) };
    },
    async interrupt() {
      if (child.exitCode === null) child.kill("SIGINT");
      return exited;
    },
    kill() {
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
