import { CodedError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { McpConfigError, McpLoadError } from "./mcp-errors.js";

describe("MCP error classes", () => {
  it("McpLoadError is a CodedError with the load report in details", () => {
    const error = new McpLoadError({ loaded: ["a"], failed: [{ serverId: "b", message: "spawn x ENOENT" }] });
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("load_failed");
    expect(error.message).toBe("Some MCP servers failed to load:\n- b: spawn x ENOENT");
    expect(error.partial).toBe(true);
    expect(error.failures).toEqual([{ serverId: "b", message: "spawn x ENOENT" }]);
    expect(error.report).toEqual({ loaded: ["a"], failed: [{ serverId: "b", message: "spawn x ENOENT" }] });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "McpLoadError",
      code: "load_failed",
      message: error.message,
      details: { loaded: ["a"], failed: [{ serverId: "b", message: "spawn x ENOENT" }], partial: true },
    });
  });

  it("McpLoadError says All when nothing loaded", () => {
    const error = new McpLoadError({ loaded: [], failed: [{ serverId: "b", message: "boom" }] });
    expect(error.partial).toBe(false);
    expect(error.message).toMatch(/^All MCP servers failed to load:\n- b: boom$/);
  });

  it("McpConfigError is a CodedError listing each problem", () => {
    const error = new McpConfigError([{ label: "h", reason: "http transport without a url" }]);
    expect(error).toBeInstanceOf(CodedError);
    expect(error.code).toBe("incomplete_config");
    expect(error.problems).toEqual([{ label: "h", reason: "http transport without a url" }]);
    expect(error.details.problems).toBe(error.problems);
    expect(error.toJSON()).toMatchObject({ name: "McpConfigError", code: "incomplete_config", details: { problems: [{ label: "h" }] } });
  });
});
