// The shared setup of the OAuth flow tests: the test servers and the registry of one test, closed after it.
import { afterEach } from "vitest";
import { type McpTestSetup, setupMcp } from "../../__fixtures__/test-servers.js";
import type { McpServerConfigInput } from "../../settings.js";
import { type OAuthTestServers, type OAuthTestServersOptions, autoApprove, startOAuthTestServers } from "./oauth-test-servers.js";

/** The redirect URL the tests register (nothing listens: `autoApprove` reads the redirect's Location). */
export const TEST_REDIRECT_URL = "http://127.0.0.1:9/oauth/callback";

/** The servers and registry of the running test. */
export interface OAuthTestSession {
  /** The registry of the running test (set by {@link OAuthTestSession.connect} or {@link OAuthTestSession.signIn}). */
  readonly setup: McpTestSetup;
  /** Starts the OAuth test servers. */
  start(options?: OAuthTestServersOptions): Promise<OAuthTestServers>;
  /** A registry with these servers and options. */
  connect(servers: McpServerConfigInput[], options?: Parameters<typeof setupMcp>[1]): Promise<McpTestSetup>;
  /** A registry whose server `id` at `url` signs in through `autoApprove`; returns the authorization URLs the host was asked to open. */
  signIn(url: string, server?: { id?: string; transport?: "http" | "sse" }): Promise<string[]>;
}

/** The session of each test of the file; its servers and registry are closed after every test. */
export function useOAuthTestSession(): OAuthTestSession {
  let servers: OAuthTestServers | undefined;
  let setup: McpTestSetup | undefined;
  afterEach(async () => {
    await setup?.close();
    await servers?.close();
    setup = undefined;
    servers = undefined;
  });
  const session: OAuthTestSession = {
    get setup() {
      return setup!;
    },
    async start(options = {}) {
      servers = await startOAuthTestServers(options);
      return servers;
    },
    async connect(configs, options) {
      setup = await setupMcp(configs, options);
      return setup;
    },
    async signIn(url, { id = "remote", transport = "http" } = {}) {
      const asked: string[] = [];
      await session.connect([{ id, transport, url, timeoutMs: 20_000 }], { oauth: { onAuthorization: autoApprove(asked), redirectUrl: TEST_REDIRECT_URL } });
      return asked;
    },
  };
  return session;
}
