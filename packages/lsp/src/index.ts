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
