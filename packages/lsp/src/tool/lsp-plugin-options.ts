/** The options of `lspTools()`, checked fail-closed (unknown keys, wrong types and values throw `SdkError` naming them). */
import { SdkError } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import type { LanguageServerConfig } from "../runtime/language-server-config.js";
import type { LspHiddenPath } from "../runtime/server-read-guard.js";

/** Options of `lspTools()` (and of the sdk's `lsp` option). */
export interface LspPluginOptions {
  /** The language servers; default the SDK's TypeScript/JavaScript and Python servers (`DEFAULT_LANGUAGE_SERVERS`). */
  readonly servers?: readonly LanguageServerConfig[];
  /** An idle server stops after this many milliseconds; default 10 minutes. */
  readonly idleStopMs?: number;
  /** Open documents per server before the least recently used is closed; default 200. */
  readonly maxOpenDocuments?: number;
  /**
   * Write, Edit, ApplyPatch and Delete report the errors their change
   * introduced (default on); `false` turns that off, an object tunes it:
   * `budgetMs` (how long a change waits for the servers, default 1500) and
   * `dependents` (also files importing the changed one, default true).
   */
  readonly diagnosticsAfterEdits?: boolean | { readonly budgetMs?: number; readonly dependents?: boolean };
  /** The most locations, symbols or diagnostics one LSP answer lists; default 100. */
  readonly maxResults?: number;
  /**
   * Paths the servers must not read inside the registry's roots, asked at
   * each server start (the sdk derives them from the `Read(...)` deny and ask
   * rules). A local server then sees them as absent; a server on an SSH
   * workspace cannot be guarded, so a non-empty list there throws `SdkError`.
   */
  readonly hiddenPaths?: () => readonly LspHiddenPath[];
}

const KEYS = ["servers", "idleStopMs", "maxOpenDocuments", "diagnosticsAfterEdits", "maxResults", "hiddenPaths"] as const;
const DIAGNOSTICS_KEYS = ["budgetMs", "dependents"] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function rejectUnknown(value: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const suggestion = closestName(key, known);
    throw new SdkError(
      "invalid_options",
      `Unknown option ${where}.${key.slice(0, 60)}${suggestion === undefined ? "" : `: did you mean ${where}.${suggestion}?`} (known: ${known.join(", ")}).`,
      { option: `${where}.${key.slice(0, 60)}`, ...(suggestion === undefined ? {} : { suggestion: `${where}.${suggestion}` }) },
    );
  }
}

function positiveNumber(value: unknown, where: string, integer: boolean): void {
  if (value === undefined) return;
  if (typeof value !== "number" || !(value > 0) || (integer && !Number.isInteger(value))) {
    throw new SdkError("invalid_options", `${where} must be a positive ${integer ? "integer" : "number"}, not ${JSON.stringify(value)?.slice(0, 40)}.`, {
      option: where,
    });
  }
}

/**
 * Checks `lspTools()` options; `where` names them in messages (`lsp` in
 * the sdk). Returns them typed.
 */
export function checkLspPluginOptions(value: unknown, where = "lspTools options"): LspPluginOptions {
  if (value === undefined) return {};
  if (!isObject(value))
    throw new SdkError("invalid_options", `${where} must be an object ({ ${KEYS.map((key) => `${key}?`).join(", ")} }).`, { option: where });
  rejectUnknown(value, KEYS, where);
  positiveNumber(value.idleStopMs, `${where}.idleStopMs`, false);
  positiveNumber(value.maxOpenDocuments, `${where}.maxOpenDocuments`, true);
  positiveNumber(value.maxResults, `${where}.maxResults`, true);
  if (value.servers !== undefined) {
    if (!Array.isArray(value.servers))
      throw new SdkError("invalid_options", `${where}.servers must be an array of language server configs.`, { option: `${where}.servers` });
    value.servers.forEach((server, index) => {
      const at = `${where}.servers[${index}]`;
      if (
        !isObject(server) ||
        typeof server.id !== "string" ||
        typeof server.command !== "string" ||
        !Array.isArray(server.extensions) ||
        !Array.isArray(server.args)
      ) {
        throw new SdkError("invalid_options", `${at} must be a language server config ({ id, extensions, languageId, command, args, ... }).`, { option: at });
      }
      if (typeof server.languageId !== "function")
        throw new SdkError("invalid_options", `${at}.languageId must be a function (extension) => languageId.`, { option: `${at}.languageId` });
    });
  }
  if (value.hiddenPaths !== undefined && typeof value.hiddenPaths !== "function") {
    throw new SdkError("invalid_options", `${where}.hiddenPaths must be a function returning the hidden paths.`, { option: `${where}.hiddenPaths` });
  }
  const diagnostics = value.diagnosticsAfterEdits;
  if (diagnostics !== undefined && typeof diagnostics !== "boolean") {
    if (!isObject(diagnostics)) {
      throw new SdkError("invalid_options", `${where}.diagnosticsAfterEdits must be true, false or { budgetMs?, dependents? }.`, {
        option: `${where}.diagnosticsAfterEdits`,
      });
    }
    rejectUnknown(diagnostics, DIAGNOSTICS_KEYS, `${where}.diagnosticsAfterEdits`);
    positiveNumber(diagnostics.budgetMs, `${where}.diagnosticsAfterEdits.budgetMs`, false);
    if (diagnostics.dependents !== undefined && typeof diagnostics.dependents !== "boolean") {
      throw new SdkError("invalid_options", `${where}.diagnosticsAfterEdits.dependents must be a boolean.`, {
        option: `${where}.diagnosticsAfterEdits.dependents`,
      });
    }
  }
  return value as LspPluginOptions;
}
