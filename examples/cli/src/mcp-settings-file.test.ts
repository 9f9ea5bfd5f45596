import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UsageError, parseCliOptions } from "./cli-options.js";
import { readMcpSettingsFile } from "./mcp-settings-file.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "cli-mcp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("--mcp settings file", () => {
  it("resolves the flag from the working directory", () => {
    expect(parseCliOptions(["--mcp", "mcp.json", "hi"], {}, dir).mcp).toBe(path.join(dir, "mcp.json"));
    expect(parseCliOptions(["hi"], {}, dir).mcp).toBeUndefined();
  });

  it("reads the servers of the file", () => {
    const file = path.join(dir, "ok.json");
    writeFileSync(file, JSON.stringify({ servers: [{ id: "crm", transport: "http", url: "http://127.0.0.1:9/mcp" }] }));
    expect(readMcpSettingsFile(file)).toEqual({ servers: [{ id: "crm", transport: "http", url: "http://127.0.0.1:9/mcp" }], selected: [] });
  });

  it("names the file when it is missing or has no servers list", () => {
    expect(() => readMcpSettingsFile(path.join(dir, "missing.json"))).toThrow(UsageError);
    const file = path.join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ mcpServers: {} }));
    expect(() => readMcpSettingsFile(file)).toThrow(`--mcp ${file}: expected { "servers": [...] } with one object per MCP server.`);
  });
});
