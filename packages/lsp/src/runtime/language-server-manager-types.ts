/** The manager's public shapes (the runtime's contract with the LSP tool). */
import type { Logger, ProcessRunner, SpawnOptions } from "@agent-tools/core";
import type { LanguageServerConfig } from "./language-server-config.js";
import type { LspDiagnostic } from "./lsp-types.js";

/** Options of one request. */
export interface LanguageServerRequestOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** One server's state for the tool's status lines. */
export interface LanguageServerStatus {
  readonly serverId: string;
  readonly root: string;
  readonly state: "starting" | "running" | "crashed" | "stopped";
  readonly pid?: number;
  readonly restarts: number;
  readonly openDocuments: number;
}

/** The language servers of one workspace. */
export interface LanguageServerManager {
  /** The config that handles a path, or undefined. */
  configFor(path: string): LanguageServerConfig | undefined;
  /** Starts (or reuses, restarting a crashed one) the server for `path`, opens/syncs the document from disk, sends one request. Positions/URIs in params and result are raw LSP (0-based). */
  request<T>(path: string, method: string, params: (document: { uri: string; text: string }) => unknown, options?: LanguageServerRequestOptions): Promise<T>;
  /** Requests sent to every running server of the workspace (workspace/symbol), starting the servers for `startFor` paths if none runs. */
  requestAll<T>(
    method: string,
    params: unknown,
    options?: LanguageServerRequestOptions & { startFor?: readonly string[] },
  ): Promise<Array<{ serverId: string; result: T }>>;
  /** Current diagnostics of `path` after syncing it from disk, waiting up to waitMs for the server to publish. */
  diagnostics(
    path: string,
    options?: { signal?: AbortSignal; waitMs?: number },
  ): Promise<{ status: "ready" | "pending"; diagnostics: readonly LspDiagnostic[] }>;
  /** Tells the servers about changed files (didChange/didClose/didChangeWatchedFiles). */
  filesChanged(changes: readonly { path: string; change: "created" | "modified" | "deleted" }[]): Promise<void>;
  /** URI -> workspace path (undefined for a URI that is not `file:`). */
  pathOfUri(uri: string): string | undefined;
  /** Workspace path -> `file://` URI. */
  uriOfPath(path: string): string;
  /** For the tool's status lines and details. */
  status(): readonly LanguageServerStatus[];
  close(): Promise<void>;
}

/** Options of {@link createLanguageServerManager}. */
export interface LanguageServerManagerOptions {
  /** Canonical absolute workspace root. */
  readonly workspaceRoot: string;
  /** The workspace's runner (local or SSH). */
  readonly processes: ProcessRunner;
  /** Reads a file through the workspace port. */
  readonly readFile: (path: string, signal?: AbortSignal) => Promise<Buffer>;
  /** The registry's command sandbox, when on: every server is spawned through it. */
  readonly confine?: (spawn: SpawnOptions) => SpawnOptions;
  /** Default {@link DEFAULT_LANGUAGE_SERVERS}. */
  readonly servers?: readonly LanguageServerConfig[];
  /** Default 10 minutes. */
  readonly idleStopMs?: number;
  /** Default 200 (LRU: didClose the least recently used). */
  readonly maxOpenDocuments?: number;
  /** Default 30 s (the first request may wait for the project to load). */
  readonly requestTimeoutMs?: number;
  readonly logger?: Logger;
}
