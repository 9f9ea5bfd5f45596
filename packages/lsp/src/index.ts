/**
 * @agent-tools/lsp: language servers for agents: the LSP tool and the
 * diagnostics after edits (`lspTools`). The runtime under it (server
 * configs, the manager, the diagnostics provider) is on
 * `@agent-tools/lsp/runtime`.
 */
export { DEFAULT_LANGUAGE_SERVERS } from "./runtime/language-server-config.js";
export type { LanguageServerConfig } from "./runtime/language-server-config.js";
export { lspTools } from "./tool/lsp-tools-plugin.js";
export { checkLspPluginOptions } from "./tool/lsp-plugin-options.js";
export type { LspPluginOptions } from "./tool/lsp-plugin-options.js";
export type { LspDetails } from "./tool/lsp-tool-input.js";
