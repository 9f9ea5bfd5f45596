/**
 * `@agent-tools/mcp/resources`: the `details` types of the ListMcpResources
 * and ReadMcpResource tools (for UIs and traces), kept off the main entry's
 * name budget. The tools themselves are part of the MCP bundles.
 *
 * @packageDocumentation
 */
export type { ListMcpResourcesDetails, McpResourceListing, McpResourceTemplateListing } from "./list-mcp-resources-tool.js";
export type { ReadMcpResourceDetails } from "./read-mcp-resource-tool.js";
export type { McpResourceContentInfo } from "./resource-content.js";
