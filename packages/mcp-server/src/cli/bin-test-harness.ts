/**
 * Shared set-up of the `agent-tools-mcp` bin tests (not exported from the
 * package): a temp project per test, the bin started through tsx from its
 * sources, and the clients and child processes a test opened ended after it.
 * Plain functions, no test-runner import: a test wires `setUp` and
 * `tearDown` into its own hooks.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const main = path.join(repositoryRoot, "packages/mcp-server/src/cli/main.ts");
const nodeArgs = ["--import", "tsx", "--conditions=@agent-tools/source", main];

/** The version in the package's `package.json`, which the bin reports. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(path.join(repositoryRoot, "packages/mcp-server/package.json"), "utf8")) as { version: string }).version;

/** How a spawned bin ended, with everything it printed. */
export interface BinExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A bin spawned with plain pipes. */
export interface SpawnedBin {
  child: ChildProcessWithoutNullStreams;
  /** Resolves once the process ended and its pipes closed. */
  exited: Promise<BinExit>;
  /** Resolves with the first match of `pattern` in stderr; rejects if the bin exits first. */
  stderrMatching(pattern: RegExp): Promise<RegExpExecArray>;
  /** Resolves with the first match of `pattern` in stdout; rejects if the bin exits first. */
  stdoutMatching(pattern: RegExp): Promise<RegExpExecArray>;
}

/** The per-test state of the bin tests; see {@link createBinSandbox}. */
export interface BinSandbox {
  /** The test's temp directory (read after `setUp`). */
  readonly base: string;
  /** The project under `base`: `src/a.ts` and `notes.md`. */
  readonly workdir: string;
  /** A data directory under `base` (not created). */
  readonly dataDir: string;
  /** Makes a fresh temp project; call before each test. */
  setUp(): void;
  /** Closes the test's clients, kills its bins, removes its directories; call after each test. */
  tearDown(): Promise<void>;
  /** Starts the bin with `args` over stdio and connects an MCP client (with form elicitation when `prepare` is given). */
  connectStdio(args: string[], prepare?: (client: Client) => void): Promise<{ client: Client; stderr: () => string }>;
  /** Spawns the bin with plain pipes. */
  spawnBin(args: string[], env?: NodeJS.ProcessEnv): SpawnedBin;
  /** Closes `client` after the test. */
  track(client: Client): Client;
}

/**
 * Creates the sandbox of a bin test file.
 *
 * @example
 * const sandbox = createBinSandbox();
 * beforeEach(() => sandbox.setUp());
 * afterEach(() => sandbox.tearDown());
 * it("serves", async () => { const { client } = await sandbox.connectStdio(["--workdir", sandbox.workdir]); });
 */
export function createBinSandbox(): BinSandbox {
  let base: string | undefined;
  const clients: Client[] = [];
  const children: ChildProcessWithoutNullStreams[] = [];

  const track = (client: Client) => {
    clients.push(client);
    return client;
  };

  const current = () => {
    if (base === undefined) throw new Error("the bin sandbox is not set up: call setUp() in beforeEach");
    return base;
  };

  return {
    get base() {
      return current();
    },
    get workdir() {
      return path.join(current(), "project");
    },
    get dataDir() {
      return path.join(current(), "data");
    },
    setUp() {
      base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-mcp-bin-"));
      const workdir = path.join(base, "project");
      mkdirSync(path.join(workdir, "src"), { recursive: true });
      writeFileSync(path.join(workdir, "src", "a.ts"), "export const a = 1;\n");
      writeFileSync(path.join(workdir, "notes.md"), "hello from the project\n");
    },
    async tearDown() {
      for (const client of clients.splice(0)) await client.close().catch(() => {});
      for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      if (base) rmSync(base, { recursive: true, force: true });
      base = undefined;
    },
    async connectStdio(args, prepare) {
      const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, ...args], cwd: repositoryRoot, stderr: "pipe" });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      const client = track(new Client({ name: "bin-test", version: "0.0.0" }, { capabilities: prepare ? { elicitation: { form: {} } } : {} }));
      prepare?.(client);
      await client.connect(transport);
      return { client, stderr: () => stderr };
    },
    spawnBin(args, env = process.env) {
      const child = spawn(process.execPath, [...nodeArgs, ...args], { cwd: repositoryRoot, env, stdio: "pipe" });
      children.push(child);
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      const exited = new Promise<BinExit>((resolve) => {
        child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
      });
      const matching = (stream: NodeJS.ReadableStream, name: string, text: () => string) => (pattern: RegExp) =>
        new Promise<RegExpExecArray>((resolve, reject) => {
          const check = () => {
            const match = pattern.exec(text());
            if (match) {
              stream.off("data", check);
              resolve(match);
            }
          };
          stream.on("data", check);
          child.on("close", () => reject(new Error(`the bin exited before printing ${pattern} on ${name}; stderr:\n${stderr}`)));
          check();
        });
      return {
        child,
        exited,
        stderrMatching: matching(child.stderr, "stderr", () => stderr),
        stdoutMatching: matching(child.stdout, "stdout", () => stdout),
      };
    },
    track,
  };
}
