/**
 * Helpers of the MCP benchmarks: the MCP SDK client loaded from the package
 * under test (so the bench measures the same ESM build that package uses),
 * and percentiles.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The MCP SDK client classes the benchmarks use. */
export interface McpClientSdk {
  Client: typeof import("@modelcontextprotocol/sdk/client/index.js").Client;
  StdioClientTransport: typeof import("@modelcontextprotocol/sdk/client/stdio.js").StdioClientTransport;
  StreamableHTTPClientTransport: typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js").StreamableHTTPClientTransport;
}

/** Loads the MCP SDK client from `packageDir`'s own `node_modules` (the build that package loads). */
export async function loadMcpClientSdk(packageDir: string): Promise<McpClientSdk> {
  const sdk = path.join(packageDir, "node_modules/@modelcontextprotocol/sdk/dist/esm");
  const load = (file: string) => import(pathToFileURL(path.join(sdk, file)).href);
  const [client, stdio, http] = await Promise.all([load("client/index.js"), load("client/stdio.js"), load("client/streamableHttp.js")]);
  return { Client: client.Client, StdioClientTransport: stdio.StdioClientTransport, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport };
}

/** The `p`th percentile (nearest rank) of ascending `sorted` samples. */
export function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}
