/**
 * The `agent-tools-mcp` bin over stdio, end to end: a real child process
 * driven by the MCP SDK's own client (and by raw JSON-RPC lines).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RAW_INITIALIZE_REQUEST, isAlive, textOf, waitUntil, waitUntilEnded } from "../testing-helpers.js";
import { PACKAGE_VERSION, createBinSandbox } from "./bin-test-harness.js";

const sandbox = createBinSandbox();
beforeEach(() => sandbox.setUp());
afterEach(() => sandbox.tearDown());

// Each case starts the bin through tsx: seconds each on a loaded machine.
describe("agent-tools-mcp over stdio", { timeout: 180_000 }, () => {
  it("lists the built-in tools with annotations and runs Glob and Read in the workdir", async () => {
    const { client } = await sandbox.connectStdio(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir]);
    expect(client.getServerVersion()?.version).toBe(PACKAGE_VERSION);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Glob", "Grep", "Bash"]));
    expect(tools.find((tool) => tool.name === "Read")?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === "Write")?.annotations?.readOnlyHint).not.toBe(true);

    const glob = await client.callTool({ name: "Glob", arguments: { pattern: "**/*.ts" } });
    expect(glob.isError).not.toBe(true);
    expect(textOf(glob)).toContain("src/a.ts");
    const read = await client.callTool({ name: "Read", arguments: { path: "notes.md" } });
    expect(textOf(read)).toContain("hello from the project");
  });

  it("--exclude leaves tools out; a read-only --root is readable and refuses a Write", async () => {
    const docs = path.join(sandbox.base, "docs");
    mkdirSync(docs);
    writeFileSync(path.join(docs, "guide.md"), "the guide\n");
    const { client } = await sandbox.connectStdio([
      "--workdir",
      sandbox.workdir,
      "--data-dir",
      sandbox.dataDir,
      "--root",
      `docs=${docs}:ro`,
      "--exclude",
      "Bash,Delete",
    ]);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("Write");
    expect(names).not.toContain("Bash");
    expect(names).not.toContain("Delete");

    const read = await client.callTool({ name: "Read", arguments: { path: "root://docs/guide.md" } });
    expect(textOf(read)).toContain("the guide");
    const write = await client.callTool({ name: "Write", arguments: { path: "root://docs/new.md", content: "x\n" } });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/read-only|read only|not writable|write access/i);
    expect(() => readFileSync(path.join(docs, "new.md"))).toThrow();
    // The workspace itself stays writable.
    const inWorkspace = await client.callTool({ name: "Write", arguments: { path: "out.md", content: "written\n" } });
    expect(inWorkspace.isError).not.toBe(true);
    expect(readFileSync(path.join(sandbox.workdir, "out.md"), "utf8")).toBe("written\n");
  });

  it("--ask with --approval deny refuses the call without running it", async () => {
    const { client } = await sandbox.connectStdio(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir, "--ask", "Write", "--approval", "deny"]);
    const write = await client.callTool({ name: "Write", arguments: { path: "denied.md", content: "x\n" } });
    expect(write.isError).toBe(true);
    expect(() => readFileSync(path.join(sandbox.workdir, "denied.md"))).toThrow();
  });

  it("--ask asks the client through elicitation: an approval runs the call, a refusal does not", async () => {
    const questions: string[] = [];
    const { client } = await sandbox.connectStdio(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir, "--ask", "Write"], (client) => {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        const message = String(request.params.message);
        questions.push(message);
        return { action: "accept", content: { approve: message.includes("approved.md") } };
      });
    });
    const approved = await client.callTool({ name: "Write", arguments: { path: "approved.md", content: "yes\n" } });
    expect(approved.isError, textOf(approved)).not.toBe(true);
    expect(readFileSync(path.join(sandbox.workdir, "approved.md"), "utf8")).toBe("yes\n");
    const refused = await client.callTool({ name: "Write", arguments: { path: "refused.md", content: "no\n" } });
    expect(refused.isError).toBe(true);
    expect(existsSync(path.join(sandbox.workdir, "refused.md"))).toBe(false);
    expect(questions).toHaveLength(2);
    expect(questions[0]).toContain("Write");
    // Read is not asked for.
    await client.callTool({ name: "Read", arguments: { path: "notes.md" } });
    expect(questions).toHaveLength(2);
  });

  it("stdin end while a Bash command runs: the bin exits and the command's process is gone", async () => {
    const bin = sandbox.spawnBin(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir]);
    const send = (message: object) => bin.child.stdin.write(`${JSON.stringify(message)}\n`);
    send(RAW_INITIALIZE_REQUEST);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const pidFile = path.join(sandbox.workdir, "sleep.pid");
    // exec: the shell becomes sleep, so $$ is the pid of the process that must end.
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "Bash", arguments: { command: `echo $$ > ${pidFile}; exec sleep 600` } } });
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the Bash command to start", 60_000);
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(isAlive(pid)).toBe(true);
    bin.child.stdin.end();
    const { code } = await bin.exited;
    expect(code).toBe(0);
    await waitUntilEnded([pid], 60_000);
  });

  it("a stdin line over 10 MiB ends the bin with exit code 1 and the reason on stderr, not exit 0", async () => {
    const bin = sandbox.spawnBin(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir]);
    bin.child.stdin.write(`${JSON.stringify(RAW_INITIALIZE_REQUEST)}\n`);
    await bin.stdoutMatching(/"id":1/);
    // A valid request, 11 MiB long; the client keeps stdin open (it waits for the answer).
    const pad = "x".repeat(11 * 1024 * 1024);
    bin.child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"pad":"${pad}"}}}\n`);
    bin.child.stdin.on("error", () => undefined);
    const { code, stdout, stderr } = await bin.exited;
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(/agent-tools-mcp: A message on stdin was larger than 10 MiB/);
    expect(stdout).not.toContain('"id":2');
  });

  it("exits 0 when the client closes stdin, with nothing but protocol on stdout", async () => {
    const bin = sandbox.spawnBin(["--workdir", sandbox.workdir, "--data-dir", sandbox.dataDir]);
    bin.child.stdin.write(`${JSON.stringify(RAW_INITIALIZE_REQUEST)}\n`);
    // Wait for the answer before closing, so the server did start serving.
    await bin.stdoutMatching(/"id":1/);
    bin.child.stdin.end();
    const { code, stdout } = await bin.exited;
    expect(code).toBe(0);
    for (const line of stdout.split("\n").filter((line) => line.trim() !== "")) {
      expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    }
  });
});
