/**
 * One running language server for one root: its process, its JSON-RPC
 * connection, its open documents and the diagnostics it published.
 *
 * States: `starting` (spawned, `initialize` in flight) -> `running` ->
 * `crashed` (the process exited or broke the protocol without being told
 * to) or `stopped` (idle stop or close). A crashed or stopped instance is
 * never reused: the manager starts a new one.
 */
import type { Logger, ProcessRunner, RunningProcess, SpawnOptions } from "@agent-tools/core";
import { createJsonRpcConnection, type JsonRpcConnection, type JsonRpcRequestOptions } from "../protocol/json-rpc-connection.js";
import { answerServerRequest, CLIENT_CAPABILITIES } from "./client-capabilities.js";
import { DocumentStore, type OpenDocument } from "./document-store.js";
import type { LanguageServerConfig } from "./language-server-config.js";
import type { LspDiagnostic } from "./lsp-types.js";
import { normalizeFileUri } from "./uris.js";

const TSSERVER_REQUEST = "typescript.tsserverRequest";

function pullKind(capabilities: Record<string, unknown>): "lsp" | "tsserver" | undefined {
  if (capabilities.diagnosticProvider) return "lsp";
  const commands = (capabilities.executeCommandProvider as { commands?: unknown } | undefined)?.commands;
  return Array.isArray(commands) && commands.includes(TSSERVER_REQUEST) ? "tsserver" : undefined;
}

interface TsserverDiagnostic {
  readonly start?: { line: number; offset: number };
  readonly end?: { line: number; offset: number };
  readonly text?: string;
  readonly code?: number;
  readonly category?: string;
}

const TSSERVER_SEVERITY: Readonly<Record<string, 1 | 2 | 3 | 4>> = { error: 1, warning: 2, message: 3, suggestion: 4 };

/** tsserver's diagnostics (1-based line/offset) as LSP diagnostics; accepts the response or its body. */
export function tsserverDiagnostics(response: unknown): LspDiagnostic[] {
  const body = Array.isArray(response) ? response : (response as { body?: unknown } | null)?.body;
  if (!Array.isArray(body)) return [];
  return (body as TsserverDiagnostic[]).flatMap((entry) => {
    if (!entry.start || typeof entry.text !== "string") return [];
    const end = entry.end ?? entry.start;
    return [
      {
        range: { start: { line: entry.start.line - 1, character: entry.start.offset - 1 }, end: { line: end.line - 1, character: end.offset - 1 } },
        severity: TSSERVER_SEVERITY[entry.category ?? "error"] ?? 1,
        message: entry.text,
        ...(entry.code !== undefined ? { code: entry.code } : {}),
        source: "typescript",
      },
    ];
  });
}

/**
 * The environment a server gets: a minimal one, never the host's own (which
 * may hold secrets). No HOME: the host's would be wrong on a remote
 * machine, and Node falls back to the account's passwd entry.
 */
export function minimalServerEnvironment(config: LanguageServerConfig): Record<string, string> {
  return { PATH: "/usr/local/bin:/usr/bin:/bin", LANG: "C.UTF-8", ...config.env };
}

/** What an instance needs from its manager. */
export interface LanguageServerInstanceOptions {
  readonly config: LanguageServerConfig;
  readonly root: string;
  readonly rootUri: string;
  readonly processes: ProcessRunner;
  readonly confine?: (spawn: SpawnOptions) => SpawnOptions;
  readonly maxOpenDocuments: number;
  readonly logger?: Logger;
  /** Told when the process ends without `stop` (a crash). */
  readonly onCrash: (reason: string) => void;
}

interface PublishedDiagnostics {
  readonly diagnostics: readonly LspDiagnostic[];
  readonly seq: number;
}

/** How much of a server's stderr is kept for the error of a failed start. */
const STDERR_TAIL_CHARS = 2000;

/** A started server. */
export class LanguageServerInstance {
  state: "starting" | "running" | "crashed" | "stopped" = "starting";
  readonly documents: DocumentStore;
  readonly ready: Promise<void>;
  private readonly process: RunningProcess;
  private readonly connection: JsonRpcConnection;
  private readonly published = new Map<string, PublishedDiagnostics>();
  private readonly waiters = new Set<() => void>();
  private publishSeq = 0;
  /** The last characters the server wrote to stderr (shown when it fails to start). */
  private stderrTail = "";
  private capabilities: Record<string, unknown> = {};

  constructor(private readonly options: LanguageServerInstanceOptions) {
    const { config, root } = options;
    this.documents = new DocumentStore(options.maxOpenDocuments);
    const spawn: SpawnOptions = {
      command: config.command,
      args: config.args,
      cwd: root,
      env: minimalServerEnvironment(config),
      extendEnv: false,
      stdin: "pipe",
    };
    this.process = options.processes.spawn(options.confine ? options.confine(spawn) : spawn);
    const folder = { uri: options.rootUri, name: root.split("/").filter(Boolean).pop() ?? root };
    this.connection = createJsonRpcConnection({
      process: this.process,
      onRequest: (method, params) => answerServerRequest(config, folder, method, params),
      onNotification: (method, params) => this.onNotification(method, params),
      onClose: (reason) => {
        if (this.state === "stopped") return;
        this.state = "crashed";
        options.logger?.warn("language server ended", { server: config.id, root, reason });
        options.onCrash(reason);
      },
    });
    this.process.onOutput((chunk) => {
      if (chunk.stream !== "stderr") return;
      const text = chunk.data.toString("utf8");
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
      options.logger?.debug("language server stderr", { server: config.id, text: text.slice(0, 2000) });
    });
    this.ready = this.initialize(folder).catch(async (error: unknown) => {
      throw await this.startFailure(error);
    });
    this.ready.catch(() => undefined);
  }

  /**
   * A failed start with what the server said last on stderr (its output is
   * read until the pipes close, at most a second, so the last line is there).
   */
  private async startFailure(error: unknown): Promise<Error> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.process.outputClosed, new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)))]);
    clearTimeout(timer);
    const message = error instanceof Error ? error.message : String(error);
    const tail = this.stderrTail.trim();
    return new Error(tail === "" ? `it did not start: ${message}` : `it did not start: ${message}; its stderr ended with:\n${tail}`);
  }

  get pid(): number | undefined {
    return this.process.pid || undefined;
  }

  /** Pids of the server's live process tree (for tests and status). */
  livePids(): number[] {
    return this.process.livePids();
  }

  private async initialize(folder: { uri: string; name: string }): Promise<void> {
    const { config } = this.options;
    const result = await this.connection.request<{ capabilities?: Record<string, unknown> } | null>("initialize", {
      // null, never the host's pid: a server watches that pid and exits when it is gone, and on a
      // remote machine (SSH) it names no process of ours (the manager ends the servers itself).
      processId: null,
      clientInfo: { name: "agent-tools" },
      rootUri: folder.uri,
      rootPath: this.options.root,
      workspaceFolders: [folder],
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: config.initializationOptions ?? {},
    });
    this.capabilities = result?.capabilities ?? {};
    await this.connection.notify("initialized", {});
    if (config.settings !== undefined) await this.connection.notify("workspace/didChangeConfiguration", { settings: config.settings });
    if (this.state === "starting") this.state = "running";
  }

  private onNotification(method: string, params: unknown): void {
    if (method !== "textDocument/publishDiagnostics") return;
    const { uri, diagnostics } = (params ?? {}) as { uri?: unknown; diagnostics?: unknown };
    if (typeof uri !== "string" || !Array.isArray(diagnostics)) return;
    this.published.set(normalizeFileUri(uri), { diagnostics: diagnostics as LspDiagnostic[], seq: ++this.publishSeq });
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Whether {@link pullDiagnostics} works on this server (LSP pull diagnostics, or tsserver's synchronous diagnostics through typescript-language-server). */
  get canPull(): boolean {
    return pullKind(this.capabilities) !== undefined;
  }

  /**
   * The document's current diagnostics, asked for rather than waited for
   * (a server that only publishes does not republish an unchanged empty
   * list, so "no publication yet" cannot tell "clean" from "not done").
   */
  async pullDiagnostics(document: { path: string; uri: string }, options: JsonRpcRequestOptions): Promise<LspDiagnostic[]> {
    const kind = pullKind(this.capabilities);
    if (kind === "lsp") {
      const report = await this.connection.request<{ kind?: string; items?: LspDiagnostic[] } | null>(
        "textDocument/diagnostic",
        { textDocument: { uri: document.uri } },
        options,
      );
      return report?.items ?? this.diagnosticsOf(document.uri).diagnostics.slice();
    }
    if (kind === "tsserver") {
      const ask = (command: string) =>
        this.connection.request<unknown>(
          "workspace/executeCommand",
          { command: TSSERVER_REQUEST, arguments: [command, { file: document.path, includeLinePosition: false }] },
          options,
        );
      const [syntactic, semantic] = await Promise.all([ask("syntacticDiagnosticsSync"), ask("semanticDiagnosticsSync")]);
      return [...tsserverDiagnostics(syntactic), ...tsserverDiagnostics(semantic)];
    }
    throw new Error("this server has no pull diagnostics");
  }

  /** A mark to compare later publications against. */
  publicationMark(): number {
    return this.publishSeq;
  }

  /** The last diagnostics published for `uri` and whether they came after `mark`. */
  diagnosticsOf(uri: string, mark = -1): { diagnostics: readonly LspDiagnostic[]; fresh: boolean; known: boolean } {
    const entry = this.published.get(normalizeFileUri(uri));
    return { diagnostics: entry?.diagnostics ?? [], fresh: entry !== undefined && entry.seq > mark, known: entry !== undefined };
  }

  /** Resolves once every uri has a publication after `mark`, or when `waitMs` passes or `signal` aborts (then false). */
  waitForDiagnostics(uris: readonly string[], mark: number, waitMs: number, signal?: AbortSignal): Promise<boolean> {
    const done = () => uris.every((uri) => this.diagnosticsOf(uri, mark).fresh);
    if (done()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const check = () => {
        if (done()) finish(true);
        else if (this.state === "crashed" || this.state === "stopped") finish(false);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), waitMs);
      this.waiters.add(check);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  request<T>(method: string, params: unknown, options?: JsonRpcRequestOptions): Promise<T> {
    return this.connection.request<T>(method, params, options);
  }

  /** Sends didOpen/didChange (and didClose for evicted documents) so the server holds `text` for `path`. */
  async syncDocument(path: string, uri: string, languageId: string, text: string): Promise<OpenDocument> {
    const sync = this.documents.sync(path, uri, languageId, text);
    if (sync.kind === "open") {
      for (const old of sync.evicted) await this.connection.notify("textDocument/didClose", { textDocument: { uri: old.uri } });
      const { document } = sync;
      await this.connection.notify("textDocument/didOpen", { textDocument: { uri, languageId, version: document.version, text } });
    } else if (sync.kind === "change") {
      await this.connection.notify("textDocument/didChange", { textDocument: { uri, version: sync.document.version }, contentChanges: [{ text }] });
    }
    return sync.document;
  }

  /** Closes `path` if open (a deleted file), and forgets its diagnostics. */
  async closeDocument(path: string): Promise<void> {
    const document = this.documents.remove(path);
    if (!document) return;
    this.published.delete(normalizeFileUri(document.uri));
    await this.connection.notify("textDocument/didClose", { textDocument: { uri: document.uri } });
  }

  /** Tells the server about files changed on disk (watched-files change types: 1 created, 2 changed, 3 deleted). */
  async watchedFilesChanged(changes: readonly { uri: string; type: 1 | 2 | 3 }[]): Promise<void> {
    if (changes.length > 0) await this.connection.notify("workspace/didChangeWatchedFiles", { changes });
  }

  /** Shuts the server down politely, then kills its tree. */
  async stop(): Promise<void> {
    if (this.state === "stopped") return;
    const wasAlive = this.state !== "crashed";
    this.state = "stopped";
    for (const waiter of [...this.waiters]) waiter();
    if (wasAlive) {
      try {
        await this.connection.request("shutdown", null, { timeoutMs: 1000 });
        await this.connection.notify("exit", null);
      } catch {
        // A server that does not answer shutdown is killed below.
      }
    }
    this.connection.dispose("the server was stopped");
    await this.process.kill({ graceMs: 500 });
  }
}
