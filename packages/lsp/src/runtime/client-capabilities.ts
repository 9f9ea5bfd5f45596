/**
 * What the client tells a server at `initialize`, and its answers to the
 * server's own requests (workspace/configuration from the config's
 * settings, capability registration, progress tokens, workspace folders).
 */
import { JsonRpcResponseError } from "../protocol/json-rpc-connection.js";
import type { LanguageServerConfig } from "./language-server-config.js";

/** The client capabilities: text sync, navigation, symbols, published diagnostics; no snippets, no edits applied. */
export const CLIENT_CAPABILITIES = {
  general: { positionEncodings: ["utf-16"] },
  window: { workDoneProgress: true },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: false },
    didChangeWatchedFiles: { dynamicRegistration: true },
    symbol: { dynamicRegistration: false },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false },
    publishDiagnostics: { relatedInformation: false, versionSupport: true },
    hover: { contentFormat: ["markdown", "plaintext"] },
    definition: { linkSupport: false },
    typeDefinition: { linkSupport: false },
    implementation: { linkSupport: false },
    references: {},
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: {},
  },
} as const;

/** The value of a dotted `section` in the settings (the whole settings without one). */
export function settingsSection(settings: unknown, section: string | undefined): unknown {
  if (!section) return settings ?? null;
  let current: unknown = settings;
  for (const key of section.split(".")) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return null;
    current = (current as Record<string, unknown>)[key];
  }
  return current ?? null;
}

/** Answers one server-to-client request; throws for the methods this client does not serve. */
export function answerServerRequest(config: LanguageServerConfig, workspaceFolder: { uri: string; name: string }, method: string, params: unknown): unknown {
  switch (method) {
    case "workspace/configuration": {
      const items = (params as { items?: Array<{ section?: string }> } | undefined)?.items ?? [];
      return items.map((item) => settingsSection(config.settings, item.section));
    }
    case "workspace/workspaceFolders":
      return [workspaceFolder];
    case "client/registerCapability":
    case "client/unregisterCapability":
    case "window/workDoneProgress/create":
      return null;
    case "window/showMessageRequest":
      return null;
    default:
      // workspace/applyEdit, window/showDocument and the rest: a server never gets the client to write or open anything.
      throw new JsonRpcResponseError(-32601, `method not supported by this client: ${method}`);
  }
}
