// The pure rules of the lazy lifecycle: ttlMs settings, manifest freshness, what reads like a tool gone.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { McpConfigError } from "../mcp-errors.js";
import { assertCompleteMcpServers, normalizeMcpServerConfig, validateMcpServerConfig } from "../settings.js";
import { DEFAULT_MANIFEST_TTL_MS, isManifestFresh } from "./manifest-book.js";
import { mayMeanToolGone, toolGoneError } from "./tool-gone.js";

describe("ttlMs settings", () => {
  it("keeps a non-negative integer and leaves it out when not given", () => {
    expect(normalizeMcpServerConfig({ id: "a", command: "x", ttlMs: 0 }).ttlMs).toBe(0);
    expect(normalizeMcpServerConfig({ id: "a", command: "x", ttlMs: 5_000 }).ttlMs).toBe(5_000);
    expect("ttlMs" in normalizeMcpServerConfig({ id: "a", command: "x" })).toBe(false);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "60000"])("rejects ttlMs %s with McpConfigError naming the field", (ttlMs) => {
    const attempt = () => normalizeMcpServerConfig({ id: "bad", command: "x", ttlMs: ttlMs as number });
    expect(attempt).toThrow(McpConfigError);
    expect(attempt).toThrow(/- bad: ttlMs must be a non-negative integer/);
    expect(validateMcpServerConfig({ id: "bad", command: "x", ttlMs: ttlMs as number }).errors.join("\n")).toMatch(/ttlMs must be a non-negative integer/);
    // A host's settings that skip the normalisation fail at load the same way.
    expect(() => assertCompleteMcpServers([{ id: "bad", enabled: true, transport: "stdio", command: "x", args: [], url: "", ttlMs: ttlMs as number }])).toThrow(
      /ttlMs must be a non-negative integer/,
    );
  });
});

describe("manifest freshness", () => {
  const config = (ttlMs?: number) => normalizeMcpServerConfig({ id: "a", command: "x", ...(ttlMs === undefined ? {} : { ttlMs }) });
  const manifest = (fetchedAt: number) => ({ serverId: "a", configHash: "h", fetchedAt, tools: [] });

  it("is fresh while younger than ttlMs (default a day); ttlMs 0 is never fresh", () => {
    const now = 10_000_000_000;
    expect(isManifestFresh(manifest(now - DEFAULT_MANIFEST_TTL_MS + 1), config(), now)).toBe(true);
    expect(isManifestFresh(manifest(now - DEFAULT_MANIFEST_TTL_MS), config(), now)).toBe(false);
    expect(isManifestFresh(manifest(now - 999), config(1_000), now)).toBe(true);
    expect(isManifestFresh(manifest(now - 1_000), config(1_000), now)).toBe(false);
    expect(isManifestFresh(manifest(now), config(0), now)).toBe(false);
  });
});

describe("tool gone", () => {
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }], isError: true });

  it("recognises the MCP SDK's and common servers' wording, thrown or as an error result", () => {
    expect(mayMeanToolGone({ result: text("MCP error -32602: Tool search not found") })).toBe(true);
    expect(mayMeanToolGone({ result: text("Unknown tool: search") })).toBe(true);
    expect(mayMeanToolGone({ error: new McpError(ErrorCode.InvalidParams, "Unknown tool: search") })).toBe(true);
    expect(mayMeanToolGone({ error: new McpError(ErrorCode.MethodNotFound, "whatever") })).toBe(true);
    expect(mayMeanToolGone({ error: new Error("MCP server x failed: MCP error -32602: Unknown tool: search") })).toBe(true);
  });

  it("does not read ordinary failures as a tool gone", () => {
    expect(mayMeanToolGone({ result: text("File /a/b does not exist") })).toBe(false);
    expect(mayMeanToolGone({ result: text("Issue not found") })).toBe(false);
    expect(mayMeanToolGone({ result: { content: [{ type: "text", text: "Unknown tool: x" }] } })).toBe(false);
    expect(mayMeanToolGone({ error: new McpError(ErrorCode.InvalidParams, "path must be absolute") })).toBe(false);
  });

  it("tells the model the tool is gone and where to look", () => {
    const error = toolGoneError("mcp_gh_search", "search", "gh");
    expect(error.code).toBe("not_found");
    expect(error.message).toMatch(/mcp_gh_search is gone.*ToolSearch.*McpManager action=tools server_id=gh/);
    expect(error.details).toEqual({ serverId: "gh", tool: "search" });
  });
});
