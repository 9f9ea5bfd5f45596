/**
 * The `agent-tools-mcp` bin end to end: a real child process driven by the
 * MCP SDK's own client over stdio and over Streamable HTTP.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const main = path.join(repositoryRoot, "packages/mcp-server/src/cli/main.ts");
const nodeArgs = ["--import", "tsx", "--conditions=@agent-tools/source", main];
const packageVersion = (JSON.parse(readFileSync(path.join(repositoryRoot, "packages/mcp-server/package.json"), "utf8")) as { version: string }).version;

let base: string;
let workdir: string;
let dataDir: string;
const clients: Client[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), "agent-tools-mcp-bin-"));
  workdir = path.join(base, "project");
  dataDir = path.join(base, "data");
  mkdirSync(path.join(workdir, "src"), { recursive: true });
  writeFileSync(path.join(workdir, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(path.join(workdir, "notes.md"), "hello from the project\n");
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(base, { recursive: true, force: true });
});

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  return (result.content as { type: string; text?: string }[]).map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}

async function connectStdio(args: string[], prepare?: (client: Client) => void): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, ...args], cwd: repositoryRoot, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "bin-test", version: "0.0.0" }, { capabilities: prepare ? { elicitation: { form: {} } } : {} });
  prepare?.(client);
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** Spawns the bin with plain pipes; resolves output and exit once it ends. */
function spawnBin(args: string[], env: NodeJS.ProcessEnv = process.env) {
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
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  const stderrMatching = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stderr);
        if (match) {
          child.stderr.off("data", check);
          resolve(match);
        }
      };
      child.stderr.on("data", check);
      child.on("close", () => reject(new Error(`the bin exited before printing ${pattern}; stderr:\n${stderr}`)));
      check();
    });
  return { child, exited, stderrMatching };
}

// Each case starts the bin through tsx: seconds each on a loaded machine.
describe("agent-tools-mcp over stdio", { timeout: 180_000 }, () => {
  it("lists the built-in tools with annotations and runs Glob and Read in the workdir", async () => {
    const { client } = await connectStdio(["--workdir", workdir, "--data-dir", dataDir]);
    expect(client.getServerVersion()?.version).toBe(packageVersion);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Glob", "Grep", "Bash"]));
    expect(tools.find((tool) => tool.name === "Read")?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === "Write")?.annotations?.readOnlyHint).not.toBe(true);

    const glob = await client.callTool({ name: "Glob", arguments: { pattern: "**/*.ts" } });
    expect(glob.isError).not.toBe(true);
    expect(text(glob)).toContain("src/a.ts");
    const read = await client.callTool({ name: "Read", arguments: { path: "notes.md" } });
    expect(text(read)).toContain("hello from the project");
  });

  it("--exclude leaves tools out; a read-only --root is readable and refuses a Write", async () => {
    const docs = path.join(base, "docs");
    mkdirSync(docs);
    writeFileSync(path.join(docs, "guide.md"), "the guide\n");
    const { client } = await connectStdio(["--workdir", workdir, "--data-dir", dataDir, "--root", `docs=${docs}:ro`, "--exclude", "Bash,Delete"]);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("Write");
    expect(names).not.toContain("Bash");
    expect(names).not.toContain("Delete");

    const read = await client.callTool({ name: "Read", arguments: { path: "root://docs/guide.md" } });
    expect(text(read)).toContain("the guide");
    const write = await client.callTool({ name: "Write", arguments: { path: "root://docs/new.md", content: "x\n" } });
    expect(write.isError).toBe(true);
    expect(text(write)).toMatch(/read-only|read only|not writable|write access/i);
    expect(() => readFileSync(path.join(docs, "new.md"))).toThrow();
    // The workspace itself stays writable.
    const inWorkspace = await client.callTool({ name: "Write", arguments: { path: "out.md", content: "written\n" } });
    expect(inWorkspace.isError).not.toBe(true);
    expect(readFileSync(path.join(workdir, "out.md"), "utf8")).toBe("written\n");
  });

  it("--ask with --approval deny refuses the call without running it", async () => {
    const { client } = await connectStdio(["--workdir", workdir, "--data-dir", dataDir, "--ask", "Write", "--approval", "deny"]);
    const write = await client.callTool({ name: "Write", arguments: { path: "denied.md", content: "x\n" } });
    expect(write.isError).toBe(true);
    expect(() => readFileSync(path.join(workdir, "denied.md"))).toThrow();
  });

  it("--ask asks the client through elicitation: an approval runs the call, a refusal does not", async () => {
    const questions: string[] = [];
    const { client } = await connectStdio(["--workdir", workdir, "--data-dir", dataDir, "--ask", "Write"], (client) => {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        const message = String(request.params.message);
        questions.push(message);
        return { action: "accept", content: { approve: message.includes("approved.md") } };
      });
    });
    const approved = await client.callTool({ name: "Write", arguments: { path: "approved.md", content: "yes\n" } });
    expect(approved.isError, text(approved)).not.toBe(true);
    expect(readFileSync(path.join(workdir, "approved.md"), "utf8")).toBe("yes\n");
    const refused = await client.callTool({ name: "Write", arguments: { path: "refused.md", content: "no\n" } });
    expect(refused.isError).toBe(true);
    expect(existsSync(path.join(workdir, "refused.md"))).toBe(false);
    expect(questions).toHaveLength(2);
    expect(questions[0]).toContain("Write");
    // Read is not asked for.
    await client.callTool({ name: "Read", arguments: { path: "notes.md" } });
    expect(questions).toHaveLength(2);
  });

  it("stdin end while a Bash command runs: the bin exits and the command's process is gone", async () => {
    const bin = spawnBin(["--workdir", workdir, "--data-dir", dataDir]);
    const send = (message: object) => bin.child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const pidFile = path.join(workdir, "sleep.pid");
    // exec: the shell becomes sleep, so $$ is the pid of the process that must end.
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "Bash", arguments: { command: `echo $$ > ${pidFile}; exec sleep 600` } } });
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the Bash command to start");
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(isAlive(pid)).toBe(true);
    bin.child.stdin.end();
    const { code } = await bin.exited;
    expect(code).toBe(0);
    await waitFor(() => !isAlive(pid), `sleep (pid ${pid}) to end`);
  });

  it("exits 0 when the client closes stdin, with nothing but protocol on stdout", async () => {
    const bin = spawnBin(["--workdir", workdir, "--data-dir", dataDir]);
    const request = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    };
    bin.child.stdin.write(`${JSON.stringify(request)}\n`);
    // Wait for the answer before closing, so the server did start serving.
    await new Promise<void>((resolve) => {
      const check = (chunk: string) => {
        if (chunk.includes('"id":1')) {
          bin.child.stdout.off("data", check);
          resolve();
        }
      };
      bin.child.stdout.on("data", check);
    });
    bin.child.stdin.end();
    const { code, stdout } = await bin.exited;
    expect(code).toBe(0);
    for (const line of stdout.split("\n").filter((line) => line.trim() !== "")) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    }
  });
});

describe("agent-tools-mcp over Streamable HTTP", { timeout: 180_000 }, () => {
  it("--http 0 prints the URL it bound, requires the bearer token, serves calls, and closes on SIGTERM", async () => {
    const bin = spawnBin(["--workdir", workdir, "--data-dir", dataDir, "--http", "0", "--token", "t0ken"]);
    const match = await bin.stderrMatching(/listening on (http:\/\/127\.0\.0\.1:(\d+)\/mcp)/);
    const url = match[1] as string;
    expect(Number(match[2])).toBeGreaterThan(0);

    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const anonymous = await fetch(url, { method: "POST", headers, body: JSON.stringify(initialize) });
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
    const wrong = await fetch(url, { method: "POST", headers: { ...headers, authorization: "Bearer nope" }, body: JSON.stringify(initialize) });
    expect(wrong.status).toBe(401);
    await wrong.body?.cancel();

    const client = new Client({ name: "bin-test-http", version: "0.0.0" }, { capabilities: {} });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer t0ken" } } }));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("Glob");
    const glob = await client.callTool({ name: "Glob", arguments: { pattern: "**/*.md" } });
    expect(text(glob)).toContain("notes.md");
    await client.close();

    bin.child.kill("SIGTERM");
    const { code, stdout } = await bin.exited;
    expect(code).toBe(0);
    expect(stdout).toBe("");
  });

  it("takes the token from AGENT_TOOLS_MCP_TOKEN", async () => {
    const bin = spawnBin(["--workdir", workdir, "--data-dir", dataDir, "--http", "0"], { ...process.env, AGENT_TOOLS_MCP_TOKEN: "from-env" });
    const url = (await bin.stderrMatching(/listening on (\S+\/mcp)/))[1] as string;
    const client = new Client({ name: "bin-test-env", version: "0.0.0" }, { capabilities: {} });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer from-env" } } }));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    bin.child.kill("SIGINT");
    expect((await bin.exited).code).toBe(0);
  });
});

describe("agent-tools-mcp command line errors", { timeout: 180_000 }, () => {
  it("exits 2 with the message and the usage on stderr for a bad flag, a missing or non-directory workdir", async () => {
    const file = path.join(base, "file.txt");
    writeFileSync(file, "");
    const cases: [string[], RegExp][] = [
      [["--workdir", workdir, "--http", "port"], /--http expects a port number/],
      [[], /--workdir <dir> is required/],
      [["--workdir", path.join(base, "missing")], /does not exist/],
      [["--workdir", file], /is not a directory/],
      [["--workdir", workdir, "--root", `docs=${path.join(base, "nope")}`], /--root docs: .* does not exist/],
    ];
    const results = await Promise.all(cases.map(([args]) => spawnBin(args).exited));
    results.forEach((result, index) => {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(cases[index]![1]);
      expect(result.stderr).toContain("Usage: agent-tools-mcp");
      expect(result.stdout).toBe("");
    });
  });

  it("exits 2 when the SDK refuses a root (an alias it does not accept)", async () => {
    const result = await spawnBin(["--workdir", workdir, "--data-dir", dataDir, "--root", `Bad Alias=${base}`]).exited;
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/cannot build the tools: .*Bad Alias/);
    expect(result.stdout).toBe("");
  });

  it("--version and --help print on stdout and exit 0", async () => {
    const version = await spawnBin(["--version"]).exited;
    expect(version).toMatchObject({ code: 0, stdout: `${packageVersion}\n` });
    const help = await spawnBin(["--help"]).exited;
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: agent-tools-mcp");
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
