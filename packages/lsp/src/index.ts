/**
 * @agent-tools/lsp: language servers for agents (the JSON-RPC client, the
 * server manager and the diagnostics after edits).
 */
export {
  DEFAULT_LANGUAGE_SERVERS,
  PYRIGHT_PYTHON_PATH,
  pythonServerConfig,
  resolveSdkLanguageServers,
  typescriptServerConfig,
} from "./runtime/language-server-config.js";
export type { LanguageServerConfig, SdkLanguageServerPaths } from "./runtime/language-server-config.js";
export { createLanguageServerManager } from "./runtime/language-server-manager.js";
export type {
  LanguageServerManager,
  LanguageServerManagerOptions,
  LanguageServerRequestOptions,
  LanguageServerStatus,
} from "./runtime/language-server-manager.js";
export type { LspDiagnostic, LspPosition } from "./runtime/lsp-types.js";
export { createLspEditDiagnostics } from "./runtime/lsp-edit-diagnostics.js";
export type { LspEditDiagnosticsOptions } from "./runtime/lsp-edit-diagnostics.js";
export { DEFAULT_MAX_MESSAGE_BYTES } from "./protocol/message-framing.js";
export { lspTools } from "./tool/lsp-tools-plugin.js";
export { checkLspPluginOptions } from "./tool/lsp-plugin-options.js";
export type { LspPluginOptions } from "./tool/lsp-plugin-options.js";
export type { LspDetails } from "./tool/lsp-tool-input.js";
