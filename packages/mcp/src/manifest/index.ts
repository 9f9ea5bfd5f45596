/**
 * `@agent-tools/mcp/manifest`: where MCP server manifests (tool lists and
 * capabilities) are cached so a registry lists a server's tools without
 * starting it. The sdk's default is `KyselyMcpManifestStore` on the SQLite
 * file of the host's data directory; pass one of these as
 * `mcp.manifestCache` to choose another (PostgreSQL through
 * `@agent-tools/storage`, or in memory).
 *
 * @packageDocumentation
 */
export type { McpManifest, McpManifestStore, McpManifestTool } from "@agent-tools/core/mcp";
export { InMemoryMcpManifestStore } from "./in-memory-mcp-manifest-store.js";
export { KyselyMcpManifestStore } from "./kysely-mcp-manifest-store.js";
export { mcpConfigHash } from "./mcp-config-hash.js";
