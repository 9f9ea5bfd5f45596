import { describe, expect, it } from "vitest";
import { textOf } from "../__fixtures__/test-servers.js";
import type { McpManagerDetails } from "../mcp-manager-support.js";
import type { OAuthTestServersOptions } from "./__fixtures__/oauth-test-servers.js";
import { useOAuthTestSession } from "./__fixtures__/oauth-test-session.js";

const session = useOAuthTestSession();

async function diagnose(options: OAuthTestServersOptions) {
  const servers = await session.start(options);
  await session.signIn(servers.mcpUrl);
  const result = await session.setup.registry.executeToolCall({ id: "m", name: "McpManager", arguments: { action: "diagnose", server_id: "remote" } });
  return { result, text: textOf(result), details: result.details as McpManagerDetails };
}

describe("McpManager names the OAuth step that failed, with the server's error", () => {
  it("discovery: the authorization server the resource names does not answer", async () => {
    const { text, details } = await diagnose({ authorizationServerOverride: "http://127.0.0.1:9" });
    expect(text).toMatch(/test=failed phase=auth_discovery/);
    expect(details.auth).toMatchObject({ authorized: false, failedPhase: "discovery" });
  });

  it("registration: dynamic registration is refused", async () => {
    const { text, details } = await diagnose({ refuseRegistration: "registration is closed for maintenance" });
    expect(text).toMatch(/test=failed phase=auth_registration/);
    expect(text).toContain("registration is closed for maintenance");
    expect(details.auth?.failedPhase).toBe("registration");
  });

  it("token: the code exchange is refused", async () => {
    const { text, details } = await diagnose({ refuseCodeExchange: "code exchange disabled" });
    expect(text).toMatch(/test=failed phase=auth_token/);
    expect(text).toContain("code exchange disabled");
    expect(details.auth?.failedPhase).toBe("token");
  });
});

describe("OAuth over the legacy SSE transport", () => {
  it("signs in through the host and calls the tool", async () => {
    const servers = await session.start({ sse: true });
    const asked = await session.signIn(servers.sseUrl, { id: "legacy", transport: "sse" });
    expect(asked).toHaveLength(1);
    const result = await session.setup.registry.executeToolCall({ id: "t", name: "mcp_legacy_whoami", arguments: {} });
    expect(result.isError).toBe(false);
    expect(textOf(result)).toContain("whoami: client dcr-");
  });
});
