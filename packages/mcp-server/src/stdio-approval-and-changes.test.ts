import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  LONG_PROCESS_TREE,
  type TestClient,
  connectStdio,
  edgeServerSettings,
  isAlive,
  processTreePids,
  stdioFixtureCommand,
  tempWorkdir,
  textOf,
  waitUntil,
  waitUntilEnded,
} from "./testing-helpers.js";

describe("approval over stdio", () => {
  const work = tempWorkdir();
  const approval = { policies: { Write: "ask" as const } };
  const questions: string[] = [];
  let accepting: TestClient;
  let declining: TestClient;
  let unable: TestClient;
  let refusing: TestClient;
  beforeAll(async () => {
    [accepting, declining, unable, refusing] = await Promise.all([
      connectStdio({ workdir: work.dir, approval }, (message) => {
        questions.push(message);
        return { action: "accept", content: { approve: true } };
      }),
      connectStdio({ workdir: work.dir, approval }, () => ({ action: "decline" })),
      connectStdio({ workdir: work.dir, approval }),
      connectStdio({ workdir: work.dir, approval, serverApproval: "deny" }, () => {
        throw new Error("a server with approval deny must not ask");
      }),
    ]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([accepting, declining, unable, refusing].map((connection) => connection?.close()));
    work.cleanup();
  });

  it("runs an ask tool after the user accepts the elicitation", async () => {
    const result = await accepting.client.callTool({ name: "Write", arguments: { path: "approved.txt", content: "yes\n" } });
    expect(result.isError).toBe(false);
    expect(readFileSync(path.join(work.dir, "approved.txt"), "utf8")).toBe("yes\n");
    expect(questions).toHaveLength(1);
    expect(questions[0]).toMatch(/Allow the tool Write[\s\S]*approved\.txt/);
  });

  it("does not run it when the user declines", async () => {
    const result = await declining.client.callTool({ name: "Write", arguments: { path: "declined.txt", content: "no\n" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/The user declined this call of Write/);
    expect(existsSync(path.join(work.dir, "declined.txt"))).toBe(false);
  });

  it("refuses it for a client without the elicitation capability, saying how to allow it", async () => {
    const result = await unable.client.callTool({ name: "Write", arguments: { path: "unable.txt", content: "no\n" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Write needs the user's approval/);
    expect(textOf(result)).toMatch(/elicitation/);
    expect(textOf(result)).toMatch(/"Write": "allow"/);
    expect(existsSync(path.join(work.dir, "unable.txt"))).toBe(false);
    const allowed = await unable.client.callTool({ name: "Read", arguments: { path: "approved.txt" } });
    expect(allowed.isError).toBe(false);
  });

  it("refuses it without asking when the server's approval is deny", async () => {
    const result = await refusing.client.callTool({ name: "Write", arguments: { path: "refused.txt", content: "no\n" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/refuses such calls \(approval: "deny"\)/);
    expect(existsSync(path.join(work.dir, "refused.txt"))).toBe(false);
  });
});

describe("tool list changes over stdio", () => {
  const work = tempWorkdir();
  let connection: TestClient;
  beforeAll(async () => {
    connection = await connectStdio({ workdir: work.dir, mcpServers: [edgeServerSettings()] });
  }, 60_000);
  afterAll(async () => {
    await connection?.close();
    work.cleanup();
  });

  it("sends list_changed when an MCP server behind the registry adds a tool, and lists it", async () => {
    let heard = 0;
    connection.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heard += 1;
    });
    expect((await connection.client.listTools()).tools.map((tool) => tool.name)).not.toContain("mcp_edge_fresh");
    const added = await connection.client.callTool({ name: "mcp_edge_add_tool", arguments: { name: "fresh" } });
    expect(textOf(added)).toBe("added fresh");
    await vi.waitFor(() => expect(heard).toBeGreaterThan(0), { timeout: 20_000 });
    expect((await connection.client.listTools()).tools.map((tool) => tool.name)).toContain("mcp_edge_fresh");
  });
});

describe("the end of the stdio stream", () => {
  const work = tempWorkdir();
  afterAll(() => work.cleanup());

  it("aborts the running calls (the Bash process tree ends) and resolves serveStdio", async () => {
    const fixture = stdioFixtureCommand({ workdir: work.dir });
    const child = spawn(fixture.command, fixture.args, { cwd: fixture.cwd, env: fixture.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    await vi.waitFor(() => expect(stdout).toContain('"id":1'), { timeout: 30_000 });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "Bash",
        arguments: { command: LONG_PROCESS_TREE, yield_time_ms: 30_000 },
        _meta: { progressToken: "p" },
      },
    });
    await waitUntil(() => processTreePids(stdout) !== undefined, "the Bash call to print its shell's and child's pids");
    const pids = processTreePids(stdout)!;
    expect(pids.every(isAlive)).toBe(true);
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toContain("serve-stdio: closed");
    await waitUntilEnded(pids);
  }, 60_000);
});
