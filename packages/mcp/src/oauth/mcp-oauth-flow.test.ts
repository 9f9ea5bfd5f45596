import { describe, expect, it } from "vitest";
import { textOf } from "../__fixtures__/test-servers.js";
import type { McpManagerDetails } from "../mcp-manager-support.js";
import { autoApprove } from "./__fixtures__/oauth-test-servers.js";
import { TEST_REDIRECT_URL as REDIRECT, useOAuthTestSession } from "./__fixtures__/oauth-test-session.js";

const session = useOAuthTestSession();
const callTool = (name: string, id = "t") => session.setup.registry.executeToolCall({ id, name, arguments: {} });
const manager = (args: Record<string, unknown>) => session.setup.registry.executeToolCall({ id: "m", name: "McpManager", arguments: args });

describe("OAuth sign-in through the host callback", () => {
  it("discovers (path-based metadata), registers dynamically, asks the host once, exchanges the code with PKCE and calls the tool", async () => {
    const auth = await session.start();
    const asked = await session.signIn(auth.mcpUrl);
    expect(asked).toHaveLength(1);
    const authorizationUrl = new URL(asked[0]!);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(REDIRECT);
    expect(authorizationUrl.searchParams.get("scope")).toBe("mcp:read");
    expect(auth.requests).toContain("GET /.well-known/oauth-protected-resource/mcp");
    expect(auth.requests).toContain("POST /register");
    expect(auth.tokenRequests).toEqual([{ grantType: "authorization_code", method: "none", clientId: expect.stringMatching(/^dcr-/) }]);
    const result = await callTool("mcp_remote_whoami");
    expect(result.isError).toBe(false);
    expect(textOf(result)).toMatch(/^whoami: client dcr-\S+ scope mcp:read/);
  });

  it("finds root-form metadata when the challenge names none", async () => {
    const auth = await session.start({ metadataForm: "root", challengeWithMetadataUrl: false });
    const asked = await session.signIn(auth.mcpUrl);
    expect(asked).toHaveLength(1);
    expect(auth.requests).toContain("GET /.well-known/oauth-protected-resource");
    expect(textOf(await callTool("mcp_remote_whoami"))).toContain("whoami: client dcr-");
  });

  for (const method of ["client_secret_basic", "client_secret_post"] as const) {
    it(`uses a pre-registered client with ${method} and registers nothing`, async () => {
      const auth = await session.start();
      const client = auth.preRegister(method, [REDIRECT]);
      await session.connect(
        [
          {
            id: "remote",
            transport: "http",
            url: auth.mcpUrl,
            timeoutMs: 20_000,
            auth: { clientId: client.clientId, clientSecret: client.clientSecret, tokenEndpointAuthMethod: method },
          },
        ],
        { oauth: { onAuthorization: autoApprove(), redirectUrl: REDIRECT } },
      );
      expect(auth.requests).not.toContain("POST /register");
      expect(auth.tokenRequests).toEqual([{ grantType: "authorization_code", method, clientId: client.clientId }]);
      expect(textOf(await callTool("mcp_remote_whoami"))).toContain(`client ${client.clientId}`);
    });
  }

  it("refreshes an expired access token without asking the host", async () => {
    const auth = await session.start();
    const asked = await session.signIn(auth.mcpUrl);
    auth.expireAccessTokens();
    const result = await callTool("mcp_remote_whoami");
    expect(result.isError).toBe(false);
    expect(auth.tokenRequests.map((request) => request.grantType)).toEqual(["authorization_code", "refresh_token"]);
    expect(asked).toHaveLength(1);
  });

  it("asks the host again when the refresh token was revoked", async () => {
    const auth = await session.start();
    const asked = await session.signIn(auth.mcpUrl);
    auth.expireAccessTokens();
    auth.revokeRefreshTokens();
    const result = await callTool("mcp_remote_whoami");
    expect(result.isError).toBe(false);
    expect(asked).toHaveLength(2);
    expect(auth.tokenRequests.map((request) => request.grantType)).toEqual(["authorization_code", "refresh_token", "authorization_code"]);
  });

  it("steps up to the scope a 403 insufficient_scope names, through the host", async () => {
    const auth = await session.start({ toolScopes: { admin: "mcp:admin" } });
    const asked = await session.signIn(auth.mcpUrl);
    const result = await callTool("mcp_remote_admin");
    expect(result.isError).toBe(false);
    expect(textOf(result)).toMatch(/^admin: client dcr-\S+ scope mcp:read mcp:admin/);
    expect(asked).toHaveLength(2);
    expect(new URL(asked[1]!).searchParams.get("scope")).toBe("mcp:read mcp:admin");
  });

  it("gets client credentials tokens for a machine client, with no host callback", async () => {
    const auth = await session.start();
    const client = auth.preRegister("client_secret_post");
    await session.connect([
      {
        id: "machine",
        transport: "http",
        url: auth.mcpUrl,
        timeoutMs: 20_000,
        auth: { grant: "client_credentials", clientId: client.clientId, clientSecret: client.clientSecret, tokenEndpointAuthMethod: "client_secret_post" },
      },
    ]);
    expect(auth.tokenRequests).toEqual([{ grantType: "client_credentials", method: "client_secret_post", clientId: client.clientId }]);
    expect(textOf(await callTool("mcp_machine_whoami"))).toContain(`client ${client.clientId}`);
  });
});

describe("McpManager and OAuth", () => {
  it("reports the auth phase when no sign-in callback exists, logs in through the callback, and shows no secret", async () => {
    const auth = await session.start();
    const client = auth.preRegister("client_secret_basic", [REDIRECT]);
    const asked: string[] = [];
    let allow = false;
    const approve = autoApprove(asked);
    await session.connect(
      [{ id: "remote", transport: "http", url: auth.mcpUrl, timeoutMs: 20_000, auth: { clientId: client.clientId, clientSecret: client.clientSecret } }],
      {
        oauth: {
          redirectUrl: REDIRECT,
          onAuthorization: async (request) => {
            if (!allow) throw new Error("the user closed the sign-in page");
            return approve(request);
          },
        },
      },
    );
    const failed = await manager({ action: "diagnose", server_id: "remote" });
    expect(failed.isError).toBe(false);
    expect(textOf(failed)).toMatch(/test=failed phase=auth_authorization/);
    expect(textOf(failed)).toContain("the user closed the sign-in page");
    expect((failed.details as McpManagerDetails).auth).toMatchObject({ authorized: false, failedPhase: "authorization" });

    allow = true;
    const login = await manager({ action: "login", server_id: "remote" });
    expect(login.isError).toBe(false);
    expect(textOf(login)).toMatch(/login=ok server=remote\nauth=authorized expires_in=(59m|1h) scopes=mcp:read refreshable=yes/);
    const tested = await manager({ action: "test", server_id: "remote" });
    expect(textOf(tested)).toMatch(/test=ok[\s\S]*auth=authorized/);
    const read = await manager({ action: "read", server_id: "remote" });
    expect(textOf(read)).toContain('"clientSecret": "<redacted>"');
    expect(textOf(read)).toMatch(/\nauth=authorized expires_in=(59m|1h) scopes=mcp:read refreshable=yes$/);

    const everything = JSON.stringify([failed, login, tested, read, await manager({ action: "list" }), session.setup.logger.warnings]);
    expect(auth.issuedSecrets.length).toBeGreaterThan(0);
    for (const secret of [...auth.issuedSecrets, client.clientSecret!]) expect(everything).not.toContain(secret);

    const logout = await manager({ action: "logout", server_id: "remote" });
    expect(textOf(logout)).toMatch(/logout=ok server=remote removed=tokens,registration/);
    const afterLogout = await manager({ action: "test", server_id: "remote" });
    expect(asked).toHaveLength(2);
    expect(textOf(afterLogout)).toContain("test=ok");
  });

  it("login hands the host an abort signal that fires when the call is cancelled, and stores nothing", async () => {
    const auth = await session.start();
    let signIn: { signal: AbortSignal } | undefined;
    let markRequested!: () => void;
    const requested = new Promise<void>((resolve) => {
      markRequested = resolve;
    });
    await session.connect([{ id: "remote", transport: "http", url: auth.mcpUrl, timeoutMs: 20_000, enabled: false }], {
      oauth: {
        redirectUrl: REDIRECT,
        onAuthorization: (request) => {
          signIn = request;
          markRequested();
          return new Promise((_, reject) => request.signal.addEventListener("abort", () => reject(new Error("closed")), { once: true }));
        },
      },
    });
    const controller = new AbortController();
    const login = session.setup.registry.executeToolCall(
      { id: "l", name: "McpManager", arguments: { action: "login", server_id: "remote" } },
      { signal: controller.signal },
    );
    await requested;
    controller.abort();
    expect((await login).isError).toBe(true);
    expect(signIn?.signal.aborted).toBe(true);
    expect(auth.tokenRequests).toEqual([]);
    expect(textOf(await manager({ action: "read", server_id: "remote" }))).toContain("auth=not_authorized");
  });

  it("logs in a server that fails for want of a sign-in callback with a message saying what to configure", async () => {
    const auth = await session.start();
    await session.connect([{ id: "remote", transport: "http", url: auth.mcpUrl, timeoutMs: 20_000, auth: { scope: "mcp:read" } }]);
    const result = await manager({ action: "test", server_id: "remote" });
    expect(textOf(result)).toMatch(/test=failed phase=auth_authorization/);
    expect(textOf(result)).toContain("this host has no sign-in callback (oauth.onAuthorization)");
  });
});
