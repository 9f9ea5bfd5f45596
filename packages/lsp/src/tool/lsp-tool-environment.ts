/** What the LSP tool of one registry works with (built by `lspTools()`). */
import type { ProcessRunner, ToolContext } from "@agent-tools/core";
import type { LanguageServerConfig } from "../runtime/language-server-config.js";
import type { LanguageServerManager } from "../runtime/language-server-manager.js";

/** The registry's language servers and the checks the tool's answers pass. */
export interface LspToolEnvironment {
  /** The registry's manager (one per registry). */
  readonly manager: LanguageServerManager;
  /** The configured servers (named in the error for a file no server handles). */
  readonly servers: readonly LanguageServerConfig[];
  /** The most locations, symbols or diagnostics one answer lists. */
  readonly maxResults: number;
  /** Reads a file of the workspace (the workspace port's file system, or the local disk). */
  readFile(path: string, signal?: AbortSignal): Promise<Buffer>;
  /** The runner `git check-ignore` runs on (the workspace's processes, or the registry's runner). */
  gitRunner(context: ToolContext): ProcessRunner;
  /** True when the permission rules deny a Read of this absolute path. */
  readDenied(path: string, signal?: AbortSignal): Promise<boolean>;
  /** Set when the servers cannot run in this registry (e.g. the sandbox was asked for but cannot start): why. */
  readonly unavailable?: string;
}
