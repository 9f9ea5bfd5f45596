/** The host-facing types of the MCP client features: defined with the MCP contracts in `@agent-tools/core/mcp`. */
export type {
  McpElicitationField,
  McpElicitationSchema,
  McpElicitationValue,
  McpElicitationRequest,
  McpElicitationResult,
  McpSamplingRequest,
  McpSamplingOptions,
  McpRoot,
} from "@agent-tools/core/mcp";
