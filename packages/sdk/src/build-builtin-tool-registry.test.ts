import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { SdkError } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const work = mkdtempSync(path.join(os.tmpdir(), "sdk-compose-"));
const dataDir = path.join(work, ".data");
afterAll(() => rmSync(work, { recursive: true, force: true }));

const edgeServer = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../mcp/src/__fixtures__/edge-server.mjs");
const FS_TOOLS = ["Read", "Image", "Write", "Edit", "NotebookEdit", "Delete", "List", "Glob", "Grep"];
const emptyMcp = () => ({ getSettings: () => ({ servers: [], selected: [] }) });

function text(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((block) => block.text ?? "").join("");
}

describe("buildBuiltinToolRegistry", () => {
  it("offers the chat catalogue in bundle order", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir, runtimeScope: "chat", mcp: emptyMcp() });
    expect(registry.tools.map((t) => t.name)).toEqual([
      ...FS_TOOLS,
      "Bash",
      "ProcessWait",
      "ProcessStop",
      "ManagedProcess",
      "TaskCreate",
      "TaskUpdate",
      "TaskList",
      "MemoryManager",
      "McpManager",
    ]);
    const readOnly = Object.entries(registry.metadataByName)
      .filter(([, m]) => m.isReadOnly)
      .map(([n]) => n);
    expect(readOnly.sort()).toEqual(["Glob", "Grep", "Image", "List", "ProcessWait", "Read", "TaskList"]);
    await registry.close();
  });

  it("offers the cron catalogue: no tasks, no session tools, no ManagedProcess", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir, runtimeScope: "cron", mcp: emptyMcp() });
    expect(registry.tools.map((t) => t.name)).toEqual([...FS_TOOLS, "Bash", "MemoryManager", "McpManager"]);
    // A scheduled run may consult memory, not change it (unless the host passes memory.mode "rw").
    expect(registry.metadataByName.MemoryManager?.isReadOnly).toBe(true);
    const result = await registry.executeToolCall({ id: "1", name: "bash", arguments: { command: "echo cron-ok" } });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("cron-ok");
    await registry.close();
  });

  it("registers MCP only when the host passes a settings getter", async () => {
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir });
    expect(registry.hasTool("McpManager")).toBe(false);
    await registry.close();
  });

  it("runs a real MCP server's tool and a file tool through one registry", async () => {
    const settings = {
      servers: [{ id: "edge", enabled: true, transport: "stdio", command: process.execPath, args: [edgeServer, "stdio"], timeoutMs: 20_000 }],
      selected: [],
    };
    const registry = await buildBuiltinToolRegistry({ workdir: work, dataDir, mcp: { getSettings: () => settings as never } });
    expect(registry.hasTool("mcp_edge_echo")).toBe(true);
    expect(registry.metadataByName.mcp_edge_echo).toMatchObject({ groupId: "mcp", serverId: "edge" });
    const echoed = await registry.executeToolCall({ id: "1", name: "mcp_edge_echo", arguments: '{"text":"through the sdk"}' });
    expect(echoed.isError).toBe(false);
    expect(text(echoed)).toContain("through the sdk");
    const written = await registry.executeToolCall({ id: "2", name: "Write", arguments: { path: "notes/a.md", content: "hello\n" } });
    expect(written.isError).toBe(false);
    const read = await registry.executeToolCall({ id: "3", name: "Read", arguments: { path: "notes/a.md" } });
    expect(text(read)).toContain("hello");
    await registry.close();
  });

  it("throws SdkError for an invalid workdir and leaves nothing open", async () => {
    await expect(buildBuiltinToolRegistry({ workdir: path.join(work, "missing"), dataDir })).rejects.toBeInstanceOf(SdkError);
    await expect(buildBuiltinToolRegistry({ workdir: "relative/dir", dataDir })).rejects.toThrow(/absolute/);
  });
});
