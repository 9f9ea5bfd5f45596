// The shared setup of the client-feature tests: a feature server and a registry whose MCP server `feat` is it.
import { afterAll, beforeAll } from "vitest";
import { type McpTestSetup, setupMcp, textOf } from "../../__fixtures__/test-servers.js";
import { type FeatureServer, startFeatureServer } from "./feature-server.js";

/** The feature server and the registry of the enclosing describe (set in its beforeAll). */
export interface FeatureTestSetup {
  readonly server: FeatureServer;
  readonly setup: McpTestSetup;
  /** Calls the server's tool `mcp_feat_<tool>`; `isError` and the result's text. */
  call(tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<{ isError: boolean; text: string }>;
}

/**
 * Starts a feature server and a registry with it as server `feat` before the
 * tests of the enclosing describe, and stops both after them.
 */
export function useFeatureServer(options?: Parameters<typeof setupMcp>[1]): FeatureTestSetup {
  let server: FeatureServer | undefined;
  let setup: McpTestSetup | undefined;
  beforeAll(async () => {
    server = await startFeatureServer();
    setup = await setupMcp([{ id: "feat", transport: "http", url: server.url, timeoutMs: 20_000 }], options);
  });
  afterAll(async () => {
    await setup?.close();
    await server?.stop();
  });
  return {
    get server() {
      return server!;
    },
    get setup() {
      return setup!;
    },
    async call(tool, args, signal) {
      const result = await setup!.registry.executeToolCall({ id: tool, name: `mcp_feat_${tool}`, arguments: args }, { signal });
      return { isError: result.isError === true, text: textOf(result) };
    },
  };
}
