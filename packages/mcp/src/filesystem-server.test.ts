import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpTestSetup, filesystemStdio, setupMcp, tempDir, textOf } from "./__fixtures__/test-servers.js";

describe("filesystem server over stdio", () => {
  const root = tempDir("mcp-fs-root-");
  const dir = realpathSync(root.dir);
  let setup: McpTestSetup;
  beforeAll(async () => {
    writeFileSync(path.join(dir, "notes.txt"), "line one\nline two\n");
    setup = await setupMcp([filesystemStdio(dir)]);
  });
  afterAll(async () => {
    await setup?.close();
    root.cleanup();
  });

  it("reads, writes and lists files inside its allowed directory", async () => {
    const read = await setup.registry.executeToolCall({ id: "r", name: "mcp_files_read_text_file", arguments: { path: path.join(dir, "notes.txt") } });
    expect(read.isError).toBe(false);
    expect(textOf(read)).toContain("line two");
    const write = await setup.registry.executeToolCall({ id: "w", name: "mcp_files_write_file", arguments: { path: path.join(dir, "new.txt"), content: "written by MCP" } });
    expect(write.isError).toBe(false);
    expect(readFileSync(path.join(dir, "new.txt"), "utf8")).toBe("written by MCP");
    const list = await setup.registry.executeToolCall({ id: "l", name: "mcp_files_list_directory", arguments: { path: dir } });
    expect(textOf(list)).toMatch(/\[FILE\] new\.txt/);
  });

  it("passes the server's refusal outside its directory back as an error result", async () => {
    const result = await setup.registry.executeToolCall({ id: "x", name: "mcp_files_read_text_file", arguments: { path: "/etc/hostname" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/denied|outside|not allowed/i);
  });

  it("rejects keys the server's schema does not declare (it does not allow extra keys explicitly)", async () => {
    const schema = setup.registry.tools.find((tool) => tool.name === "mcp_files_read_text_file")?.inputSchema;
    expect(schema).toMatchObject({ type: "object", properties: { path: { type: "string" } } });
    const result = await setup.registry.executeToolCall({ id: "k", name: "mcp_files_read_text_file", arguments: { path: path.join(dir, "notes.txt"), bogus: true } });
    expect(schema?.additionalProperties).toBeUndefined();
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/unsupported argument\(s\): bogus/);
  });
});
