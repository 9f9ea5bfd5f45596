/**
 * `@agent-tools/lsp/runtime`: the language-server runtime under the LSP
 * tool, for hosts that drive servers themselves: the server configs, the
 * manager (start on demand, crash restart, idle stop, document sync) and
 * the diagnostics-after-edits provider.
 */
export {
  DEFAULT_LANGUAGE_SERVERS,
  PYRIGHT_PYTHON_PATH,
  pythonServerConfig,
  resolveSdkLanguageServers,
  typescriptServerConfig,
} from "./language-server-config.js";
export type { LanguageServerConfig, SdkLanguageServerPaths } from "./language-server-config.js";
export { createLanguageServerManager } from "./language-server-manager.js";
export type {
  LanguageServerManager,
  LanguageServerManagerOptions,
  LanguageServerRequestOptions,
  LanguageServerStatus,
} from "./language-server-manager.js";
export type { LspDiagnostic, LspPosition } from "./lsp-types.js";
export { createLspEditDiagnostics } from "./lsp-edit-diagnostics.js";
export type { LspEditDiagnosticsOptions } from "./lsp-edit-diagnostics.js";
export type { LspHiddenPath } from "./server-read-guard.js";
export { DEFAULT_MAX_MESSAGE_BYTES } from "../protocol/message-framing.js";
