import { describe, expect, it } from "vitest";
import { MCP_TOOL_NAME_MAX, buildMcpToolName, fnv1a32, sanitizeMcpNamePart } from "./tool-naming.js";

// An independent FNV-1a 32 over UTF-16 code units, in BigInt arithmetic.
function referenceFnv(text: string): string {
  let hash = 0x811c9dc5n;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= BigInt(text.charCodeAt(index));
    hash = (hash * 0x01000193n) % 0x1_0000_0000n;
  }
  return hash.toString(16).padStart(8, "0");
}

describe("fnv1a32", () => {
  it("matches the published FNV-1a 32-bit vectors", () => {
    expect(fnv1a32("")).toBe(0x811c9dc5);
    expect(fnv1a32("a")).toBe(0xe40c292c);
    expect(fnv1a32("foobar")).toBe(0xbf9cf968);
  });

  it("hashes UTF-16 code units, not UTF-8 bytes", () => {
    for (const text of ["é", "服务器::工具", "😀::x", "srv::tool"]) expect(fnv1a32(text).toString(16).padStart(8, "0")).toBe(referenceFnv(text));
    // "é" is one code unit 0xE9: (0x811c9dc5 ^ 0xe9) * prime mod 2^32
    expect(fnv1a32("é")).toBe(Number((BigInt((0x811c9dc5 ^ 0xe9) >>> 0) * 0x01000193n) % 0x1_0000_0000n));
  });
});

describe("sanitizeMcpNamePart", () => {
  it("trims, replaces runs of other characters with one underscore and strips edge underscores", () => {
    expect(sanitizeMcpNamePart("  my server!! ", "server")).toBe("my_server");
    expect(sanitizeMcpNamePart("do.thing/now", "tool")).toBe("do_thing_now");
    expect(sanitizeMcpNamePart("keep-dash_and_underscore", "tool")).toBe("keep-dash_and_underscore");
    expect(sanitizeMcpNamePart("__x__", "tool")).toBe("x");
  });
  it("falls back when nothing is left and cuts to 48", () => {
    expect(sanitizeMcpNamePart("!!!", "server")).toBe("server");
    expect(sanitizeMcpNamePart("", "tool")).toBe("tool");
    expect(sanitizeMcpNamePart("a".repeat(60), "tool")).toBe("a".repeat(48));
  });
});

describe("buildMcpToolName", () => {
  it("joins short parts plainly", () => {
    expect(buildMcpToolName("github", "create_issue")).toBe("mcp_github_create_issue");
    expect(buildMcpToolName("everything", "get-sum")).toBe("mcp_everything_get-sum");
    expect(buildMcpToolName("", "")).toBe("mcp_server_tool");
    expect(buildMcpToolName("a".repeat(60), "x")).toBe(`mcp_${"a".repeat(48)}_x`);
  });

  it("keeps a name of exactly 64 characters plain", () => {
    const tool = "t".repeat(48);
    expect(buildMcpToolName("server-1234", tool)).toBe(`mcp_server-1234_${tool}`);
    expect(buildMcpToolName("server-1234", tool).length).toBe(64);
    expect(buildMcpToolName("server-12345", tool)).toMatch(/^mcp_server-12345_t{24}_[0-9a-f]{8}$/);
  });

  it("shortens with the FNV-1a suffix past 64 characters", () => {
    const serverId = "a-server-with-a-rather-long-name";
    const toolName = "this_is_a_very_long_tool_name_that_goes_on_and_on_beyond_the_sixty_four_character_limit";
    const name = buildMcpToolName(serverId, toolName);
    expect(name).toBe(`mcp_a-server-with-a-_this_is_a_very_long_tool_${referenceFnv(`${serverId}::${toolName}`)}`);
    expect(name.length).toBeLessThanOrEqual(MCP_TOOL_NAME_MAX);
    expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it("hashes the raw ids, so names that sanitise alike stay distinct", () => {
    const long = "x".repeat(70);
    const first = buildMcpToolName("server.one.long.name", `${long}!`);
    const second = buildMcpToolName("server.one.long.name", `${long}?`);
    expect(first).not.toBe(second);
    expect(first.slice(-8)).toBe(referenceFnv(`server.one.long.name::${long}!`));
  });
});
