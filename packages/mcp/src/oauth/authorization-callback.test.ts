import { describe, expect, it } from "vitest";
import { setupMcp, textOf } from "../__fixtures__/test-servers.js";
import { readAuthorizationCode } from "./authorization-callback.js";
import { startOAuthTestServers } from "./__fixtures__/oauth-test-servers.js";

describe("the host's answer to a sign-in", () => {
  it("takes the code of a callback URL whose state matches, or a bare code", () => {
    expect(readAuthorizationCode("remote", { callbackUrl: "http://127.0.0.1:9/cb?code=abc&state=s1" }, "s1")).toBe("abc");
    expect(readAuthorizationCode("remote", { code: "abc" }, "s1")).toBe("abc");
    expect(readAuthorizationCode("remote", { code: "abc", state: "s1" }, "s1")).toBe("abc");
  });

  it("refuses a wrong or missing state, a missing code, an error redirect and a non-URL, naming the server", () => {
    expect(() => readAuthorizationCode("remote", { callbackUrl: "http://127.0.0.1:9/cb?code=abc&state=other" }, "s1")).toThrow(
      /MCP server remote does not belong to this sign-in \(state mismatch\)/,
    );
    expect(() => readAuthorizationCode("remote", { code: "abc", state: "other" }, "s1")).toThrow(/state mismatch/);
    expect(() => readAuthorizationCode("remote", { callbackUrl: "http://127.0.0.1:9/cb?code=abc" }, "s1")).toThrow(/has no state/);
    expect(() => readAuthorizationCode("remote", { callbackUrl: "http://127.0.0.1:9/cb?state=s1" }, "s1")).toThrow(/carries no code/);
    expect(() => readAuthorizationCode("remote", { callbackUrl: "http://127.0.0.1:9/cb?error=access_denied&error_description=User+said+no" }, "s1")).toThrow(
      "The authorization server of MCP server remote refused the sign-in: access_denied (User said no).",
    );
    expect(() => readAuthorizationCode("remote", { callbackUrl: "not a url" }, "s1")).toThrow(/is not a URL/);
  });
});

describe("an OAuth store that cannot open", () => {
  it("leaves servers that need no sign-in working, and fails those that do with the store's message", async () => {
    const [open, protectedServers] = await Promise.all([startOAuthTestServers({ unprotected: true }), startOAuthTestServers()]);
    try {
      const setup = await setupMcp(
        [
          { id: "open", transport: "http", url: open.mcpUrl, timeoutMs: 20_000 },
          { id: "remote", transport: "http", url: protectedServers.mcpUrl, timeoutMs: 20_000 },
        ],
        { oauth: { onAuthorization: async () => ({ code: "x" }), store: () => Promise.reject(new Error("database is locked by another process")) } },
      );
      try {
        expect(textOf(await setup.registry.executeToolCall({ id: "t", name: "mcp_open_whoami", arguments: {} }))).toBe("whoami: client anonymous scope ");
        const result = await setup.registry.executeToolCall({ id: "m", name: "McpManager", arguments: { action: "test", server_id: "remote" } });
        expect(textOf(result)).toMatch(/test=failed phase=auth_\w+/);
        expect(textOf(result)).toContain("database is locked by another process");
      } finally {
        await setup.close();
      }
    } finally {
      await Promise.all([open.close(), protectedServers.close()]);
    }
  });
});
