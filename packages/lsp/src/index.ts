/**
 * @agent-tools/lsp: language servers for agents: the LSP tool and the
 * diagnostics after edits (`lspTools`). The runtime under it (server
 * configs such as `DEFAULT_LANGUAGE_SERVERS`, the manager, the diagnostics
 * provider) is on `@agent-tools/lsp/runtime`.
 *
 * @packageDocumentation
 */
export { lspTools } from "./tool/lsp-tools-plugin.js";
export type { LspPluginOptions } from "./tool/lsp-plugin-options.js";
export type { LspDetails } from "./tool/lsp-tool-input.js";
