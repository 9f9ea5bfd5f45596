import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClient, TINY_PNG_BASE64, connectStdio, isAlive, startProcessTreeCall, tempWorkdir, textOf, waitUntilEnded } from "./testing-helpers.js";

describe("createMcpServer over stdio", () => {
  const work = tempWorkdir();
  let connection: TestClient;
  beforeAll(async () => {
    writeFileSync(path.join(work.dir, "pixel.png"), Buffer.from(TINY_PNG_BASE64, "base64"));
    connection = await connectStdio({ workdir: work.dir, excludeTools: ["managedprocess"], approval: { policies: { Delete: "deny" } } });
  }, 60_000);
  afterAll(async () => {
    await connection?.close();
    work.cleanup();
  });

  it("introduces itself with the instructions and the list_changed capability", () => {
    expect(connection.client.getServerVersion()).toMatchObject({ name: "agent-tools", version: expect.any(String) });
    expect(connection.client.getInstructions()).toBe("Test tools.");
    expect(connection.client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  });

  it("lists the registry's tools with JSON Schemas and annotations, minus the excluded ones", async () => {
    const { tools } = await connection.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["Read", "Write", "Edit", "Bash", "TaskList"]));
    expect(names).not.toContain("ManagedProcess");
    const read = tools.find((tool) => tool.name === "Read")!;
    expect(read.description).toMatch(/\S/);
    expect(read.inputSchema).toMatchObject({ type: "object", properties: { path: expect.any(Object) } });
    expect(read.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(tools.find((tool) => tool.name === "Write")!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tools.find((tool) => tool.name === "Bash")!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
  });

  it("calls Write then Read, with structured content from the details", async () => {
    const written = await connection.client.callTool({ name: "Write", arguments: { path: "notes/a.md", content: "hello over mcp\n" } });
    expect(written.isError).toBe(false);
    const read = await connection.client.callTool({ name: "read", arguments: { path: "notes/a.md" } });
    expect(read.isError).toBe(false);
    expect(textOf(read)).toContain("hello over mcp");
    expect(read.structuredContent).toEqual(expect.any(Object));
    expect(JSON.stringify(read.structuredContent)).toContain("a.md");
  });

  it("answers a failing call with an isError result that says what went wrong", async () => {
    const missing = await connection.client.callTool({ name: "Read", arguments: { path: "nowhere.txt" } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/nowhere\.txt/);
    const badArguments = await connection.client.callTool({ name: "Read", arguments: { nope: 1 } });
    expect(badArguments.isError).toBe(true);
    expect(textOf(badArguments)).toMatch(/nope/);
  });

  it("refuses unknown and excluded tools with the available names", async () => {
    for (const name of ["NoSuchTool", "ManagedProcess"]) {
      const result = await connection.client.callTool({ name, arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(new RegExp(`Unknown tool: ${name}\\. Available tools: .*Read`));
      expect(textOf(result)).not.toMatch(/ManagedProcess,/);
      expect(textOf(result)).toContain("tools/list");
    }
  });

  it("neither lists nor runs a tool the approval policy denies", async () => {
    const { tools } = await connection.client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain("Delete");
    const result = await connection.client.callTool({ name: "Delete", arguments: { path: "notes/a.md" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/Delete is denied by the approval policy/);
  });

  it("returns an image block for a PNG", async () => {
    const result = await connection.client.callTool({ name: "Read", arguments: { path: "pixel.png" } });
    expect(result.isError).toBe(false);
    const image = (result.content as Array<{ type: string; data?: string; mimeType?: string }>).find((block) => block.type === "image");
    expect(image).toEqual({ type: "image", data: TINY_PNG_BASE64, mimeType: "image/png" });
  });

  it("sends progress notifications with the streamed output of a Bash call", async () => {
    const messages: string[] = [];
    const progressValues: number[] = [];
    const result = await connection.client.callTool({ name: "Bash", arguments: { command: "echo first-line; sleep 0.3; echo second-line" } }, undefined, {
      onprogress: (progress) => {
        progressValues.push(progress.progress);
        if (progress.message) messages.push(progress.message);
      },
    });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("second-line");
    expect(messages.join("")).toContain("first-line");
    expect(messages.join("")).toContain("second-line");
    expect(progressValues).toEqual([...progressValues].sort((a, b) => a - b));
    expect(new Set(progressValues).size).toBe(progressValues.length);
  });

  it("cancels a Bash call on notifications/cancelled and its process tree ends", async () => {
    const abort = new AbortController();
    const { pids, settled } = await startProcessTreeCall(connection.client, abort.signal);
    expect(pids.every(isAlive)).toBe(true);
    abort.abort("test cancels");
    expect(await settled).toMatch(/test cancels|abort/i);
    await waitUntilEnded(pids);
  });
});
