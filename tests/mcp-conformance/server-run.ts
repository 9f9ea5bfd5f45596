/**
 * The server side of the conformance test: starts `agent-tools-mcp` over
 * Streamable HTTP on 127.0.0.1 as a real process (the shipped command, or the
 * command with the suite's fixture tools), lists the suite's server
 * scenarios, runs one scenario with server-baseline.yml, and asks the server
 * for its capabilities and tools with plain JSON-RPC over HTTP.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ConformanceCheck, type ScenarioRun, repositoryRoot } from "./run-conformance.js";
import type { ServerUnderTest } from "./server-scenarios.js";

const compat = path.join(repositoryRoot, "compat", "mcp-conformance");
const node22 = path.join(compat, "node_modules", "node", "bin", "node");
const runner = path.join(compat, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
/** The expected failures of the server scenarios, each with its reason. */
export const serverBaselineFile = path.join(repositoryRoot, "tests", "mcp-conformance", "server-baseline.yml");
const entries: Record<ServerUnderTest, string> = {
  command: path.join(repositoryRoot, "packages", "mcp-server", "src", "cli", "main.ts"),
  fixture: path.join(repositoryRoot, "tests", "mcp-conformance", "server-fixture-main.ts"),
};

/** One server scenario as `conformance list --server` shows it. */
export interface ServerScenarioListing {
  name: string;
  /** Spec versions, e.g. `2025-11-25`. */
  tags: string[];
}

/** Every server scenario the installed suite knows. */
export function listServerScenarios(): ServerScenarioListing[] {
  const output = execFileSync(node22, [runner, "list", "--server"], { encoding: "utf8", cwd: repositoryRoot });
  const scenarios: ServerScenarioListing[] = [];
  for (const line of output.split("\n")) {
    const match = /^\s*-\s+(\S+)(?:\s+\[([^\]]*)\])?/.exec(line);
    if (match) scenarios.push({ name: match[1] as string, tags: (match[2] ?? "").split(",").filter(Boolean) });
  }
  return scenarios;
}

/** The `server:` entries of server-baseline.yml, each with the comment lines above it (its reason). */
export function readServerBaseline(): Array<{ name: string; reason: string }> {
  const result: Array<{ name: string; reason: string }> = [];
  let inServer = false;
  let comment: string[] = [];
  for (const line of readFileSync(serverBaselineFile, "utf8").split("\n")) {
    if (/^\S/.test(line)) {
      inServer = /^server:\s*(#.*)?$/.test(line);
      comment = [];
      continue;
    }
    const note = /^\s+#\s?(.*)$/.exec(line);
    if (note) {
      comment.push(note[1] as string);
      continue;
    }
    const item = /^\s+-\s+["']?([^"'#\s]+)/.exec(line);
    if (inServer && item) {
      result.push({ name: item[1] as string, reason: comment.join(" ").trim() });
      comment = [];
    }
  }
  return result;
}

/** A running agent-tools-mcp process. */
export interface RunningServer {
  url: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits for the exit (SIGKILL after 10 s); removes its directories. */
  stop(): Promise<void>;
}

/**
 * Starts `agent-tools-mcp --workdir <temp> --data-dir <temp> --http 0`
 * (through tsx on the workspace sources) and resolves with the URL it
 * prints on stderr.
 */
export async function startServer(which: ServerUnderTest): Promise<RunningServer> {
  const base = mkdtempSync(path.join(os.tmpdir(), `agent-tools-conformance-server-${which}-`));
  const args = ["--import", "tsx", "--conditions=@agent-tools/source", entries[which]];
  args.push("--workdir", base, "--data-dir", path.join(base, ".data"), "--http", "0", "--max-sessions", "100");
  const child = spawn(process.execPath, args, { cwd: repositoryRoot, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agent-tools-mcp (${which}) printed no URL within 60 s:\n${stderr}`)), 60_000);
    child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`agent-tools-mcp (${which}) exited ${code} before listening:\n${stderr}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child, exited);
    rmSync(base, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      await stopChild(child, exited);
      rmSync(base, { recursive: true, force: true });
    },
  };
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

function findChecks(outputDir: string): ConformanceCheck[] {
  if (!existsSync(outputDir)) return [];
  const stack = [outputDir];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isFile() && entry.name === "checks.json") return JSON.parse(readFileSync(path.join(dir, entry.name), "utf8")) as ConformanceCheck[];
      if (entry.isDirectory()) stack.push(path.join(dir, entry.name));
    }
  }
  return [];
}

/**
 * `conformance server --url <url> --scenario <name> --expected-failures
 * server-baseline.yml -o <outputDir>`: exit code 0 when the scenario passed,
 * or failed as the baseline expects (a failed or warning check of a scenario
 * not in the baseline, or a baseline entry that passes, exit 1).
 */
export function runServerScenario(scenario: string, url: string, outputDir: string): Promise<ScenarioRun> {
  const args = [runner, "server", "--url", url, "--scenario", scenario, "--expected-failures", serverBaselineFile, "-o", outputDir];
  return new Promise((resolve) => {
    execFile(node22, args, { cwd: repositoryRoot, maxBuffer: 32 * 1024 * 1024, timeout: 90_000 }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ scenario, exitCode, checks: findChecks(outputDir), output: `${stdout}${stderr}`, driverStderr: "" });
    });
  });
}

/** The JSON-RPC messages of a Streamable HTTP answer (one JSON body, or the `data:` lines of an event stream). */
function messagesOf(body: string, contentType: string | null): Array<{ id?: unknown; result?: Record<string, unknown> }> {
  if (contentType?.includes("application/json")) return [JSON.parse(body)];
  return body
    .split("\n")
    .filter((line) => line.startsWith("data:") && line.slice(5).trim() !== "")
    .map((line) => JSON.parse(line.slice(5)));
}

/** What the server answers a fresh client: its `initialize` capabilities and its `tools/list` names. */
export async function describeServer(url: string): Promise<{ capabilities: Record<string, unknown>; tools: string[] }> {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
  const post = async (message: Record<string, unknown>, session?: string) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { ...headers, ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}) },
      body: JSON.stringify(message),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${message.method}: HTTP ${response.status} ${text}`);
    return {
      session: response.headers.get("mcp-session-id") ?? undefined,
      messages: text === "" ? [] : messagesOf(text, response.headers.get("content-type")),
    };
  };
  const init = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "conformance-server-test", version: "1.0.0" } },
  });
  const capabilities = (init.messages.find((message) => message.id === 1)?.result?.capabilities ?? {}) as Record<string, unknown>;
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, init.session);
  const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }, init.session);
  const tools = ((list.messages.find((message) => message.id === 2)?.result?.tools ?? []) as Array<{ name: string }>).map((tool) => tool.name);
  await fetch(url, { method: "DELETE", headers: { "mcp-session-id": init.session ?? "", "mcp-protocol-version": "2025-11-25" } });
  return { capabilities, tools };
}
