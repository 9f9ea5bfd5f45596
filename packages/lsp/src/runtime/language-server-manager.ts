/**
 * The language servers of one workspace: started on the first request for
 * a file they handle, restarted on the next request after a crash, stopped
 * after an idle period and on close. Files are read through the
 * workspace's port and sent whole (didOpen, then didChange with the full
 * text when they differ), so a server never needs to read the file itself.
 *
 * Invariants: at most one instance per (server id, root); a crashed
 * instance is replaced, never reused; after `close` nothing starts again
 * and no server process is left.
 */
import { SdkError, ToolError } from "@agent-tools/core";
import { DEFAULT_LANGUAGE_SERVERS, type LanguageServerConfig } from "./language-server-config.js";
import { LanguageServerInstance } from "./language-server-instance.js";
import type { LanguageServerManager, LanguageServerManagerOptions, LanguageServerRequestOptions } from "./language-server-manager-types.js";
import { currentDiagnostics } from "./current-diagnostics.js";
import { type LanguageServerManagerInternals, MANAGER_INTERNALS } from "./manager-internals.js";
import { createRootFinder } from "./root-finder.js";
import { extensionOf, pathOfFileUri, uriOfFilePath } from "./uris.js";

export type { LspDiagnostic } from "./lsp-types.js";
export { managerInternals } from "./manager-internals.js";
export type { LanguageServerManagerInternals } from "./manager-internals.js";
export type {
  LanguageServerManager,
  LanguageServerManagerOptions,
  LanguageServerRequestOptions,
  LanguageServerStatus,
} from "./language-server-manager-types.js";

interface Slot {
  readonly config: LanguageServerConfig;
  readonly root: string;
  instance: LanguageServerInstance;
  restarts: number;
  lastUsed: number;
  /** Operations in flight: an idle stop waits for them. */
  leases: number;
  idleTimer?: ReturnType<typeof setTimeout>;
}

/** At most this many servers run at once (a tree of model-written pyproject.toml files must not start hundreds): the least recently used one stops. */
const MAX_RUNNING_SERVERS = 8;

/** The largest file sent to a server: 8 MiB. */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/**
 * Creates the manager of one workspace's language servers.
 *
 * @example
 * const manager = createLanguageServerManager({ workspaceRoot: "/repo", processes: runner, readFile: (path) => fs.readFile(path) });
 * const hover = await manager.request("/repo/src/a.ts", "textDocument/hover", ({ uri }) => ({ textDocument: { uri }, position: { line: 0, character: 6 } }));
 */
export function createLanguageServerManager(options: LanguageServerManagerOptions): LanguageServerManager {
  const servers = options.servers ?? DEFAULT_LANGUAGE_SERVERS;
  const ids = new Set<string>();
  for (const server of servers) {
    if (ids.has(server.id)) throw new SdkError("invalid_options", `lsp servers: the id "${server.id}" is used twice`);
    ids.add(server.id);
  }
  const workspaceRoot = options.workspaceRoot.replace(/\/+$/, "") || "/";
  const idleStopMs = options.idleStopMs ?? 10 * 60_000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const slots = new Map<string, Slot>();
  const findRoot = createRootFinder(workspaceRoot, options.readFile);
  let closed = false;

  const configFor = (path: string) => {
    const extension = extensionOf(path);
    return extension ? servers.find((server) => server.extensions.includes(extension)) : undefined;
  };
  const requireConfig = (path: string) => {
    const config = configFor(path);
    if (!config) throw new Error(`no language server handles ${path}`);
    return config;
  };
  const retiring = new Set<Promise<void>>();
  /** Stops an instance without waiting; `close` waits for every one still stopping. */
  const retire = (instance: LanguageServerInstance) => {
    const stopping = instance.stop().finally(() => retiring.delete(stopping));
    retiring.add(stopping);
  };
  let useCounter = 0;
  const touch = (slot: Slot) => {
    slot.lastUsed = ++useCounter;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      slot.idleTimer = undefined;
      if (slot.leases > 0) touch(slot);
      else retire(slot.instance);
    }, idleStopMs);
    slot.idleTimer.unref?.();
  };
  const spawnInstance = (config: LanguageServerConfig, root: string) =>
    new LanguageServerInstance({
      config,
      root,
      rootUri: uriOfFilePath(root),
      processes: options.processes,
      ...(options.confine ? { confine: options.confine } : {}),
      maxOpenDocuments: options.maxOpenDocuments ?? 200,
      ...(options.logger ? { logger: options.logger } : {}),
      onCrash: () => undefined,
    });
  const slotFor = async (path: string, start: boolean): Promise<Slot | undefined> => {
    const config = requireConfig(path);
    const root = await findRoot(path, config.rootMarkers ?? []);
    const key = `${config.id}\u0000${root}`;
    let slot = slots.get(key);
    if (!start) return slot;
    if (closed) throw new SdkError("closed", "the language server manager is closed");
    // Synchronous from here to the map update: concurrent callers must not both start a server.
    if (!slot || slot.instance.state === "crashed" || slot.instance.state === "stopped") {
      const live = [...slots.values()].filter((other) => other !== slot && (other.instance.state === "running" || other.instance.state === "starting"));
      if (live.length >= MAX_RUNNING_SERVERS) {
        const oldest = live.reduce((a, b) => (a.lastUsed <= b.lastUsed ? a : b));
        retire(oldest.instance);
      }
    }
    if (!slot) {
      slot = { config, root, instance: spawnInstance(config, root), restarts: 0, lastUsed: 0, leases: 0 };
      slots.set(key, slot);
    } else if (slot.instance.state === "crashed" || slot.instance.state === "stopped") {
      if (slot.instance.state === "crashed") slot.restarts += 1;
      retire(slot.instance);
      slot.instance = spawnInstance(config, root);
    }
    touch(slot);
    return slot;
  };
  const instanceFor = async (path: string) => {
    const slot = (await slotFor(path, true)) as Slot;
    await slot.instance.ready;
    return slot.instance;
  };
  /** Runs `operation` on the running instance for `path`, holding off the idle stop meanwhile. */
  const withInstance = async <T>(path: string, operation: (instance: LanguageServerInstance) => Promise<T>): Promise<T> => {
    const slot = (await slotFor(path, true)) as Slot;
    slot.leases += 1;
    try {
      await slot.instance.ready;
      return await operation(slot.instance);
    } finally {
      slot.leases -= 1;
      touch(slot);
    }
  };
  /** The file's text; a file over the cap is refused (a server holds every open document in memory). */
  const readText = async (path: string, signal?: AbortSignal) => {
    const bytes = await options.readFile(path, signal);
    if (bytes.length > MAX_DOCUMENT_BYTES) {
      throw new ToolError(
        "too_large",
        `${path} is ${(bytes.length / 1048576).toFixed(1)} MiB; language servers are sent files up to ${MAX_DOCUMENT_BYTES / 1048576} MiB.`,
        {
          details: { bytes: bytes.length, limit: MAX_DOCUMENT_BYTES },
        },
      );
    }
    return bytes.toString("utf8");
  };
  const syncFromDisk = async (instance: LanguageServerInstance, path: string, signal?: AbortSignal) => {
    const text = await readText(path, signal);
    const config = requireConfig(path);
    await instance.syncDocument(path, uriOfFilePath(path), config.languageId(extensionOf(path) ?? ""), text);
    return text;
  };

  const manager: LanguageServerManager = {
    configFor,
    uriOfPath: uriOfFilePath,
    pathOfUri: pathOfFileUri,
    async request<T>(
      path: string,
      method: string,
      params: (document: { uri: string; text: string }) => unknown,
      requestOptions: LanguageServerRequestOptions = {},
    ) {
      return withInstance(path, async (instance) => {
        const text = await syncFromDisk(instance, path, requestOptions.signal);
        return instance.request<T>(method, params({ uri: uriOfFilePath(path), text }), {
          timeoutMs: requestOptions.timeoutMs ?? requestTimeoutMs,
          ...(requestOptions.signal ? { signal: requestOptions.signal } : {}),
        });
      });
    },
    async requestAll<T>(method: string, params: unknown, requestOptions: LanguageServerRequestOptions & { startFor?: readonly string[] } = {}) {
      const running = [...slots.values()].filter((slot) => slot.instance.state === "running" || slot.instance.state === "starting");
      if (running.length === 0) {
        for (const path of requestOptions.startFor ?? []) {
          if (!configFor(path)) continue;
          const instance = await instanceFor(path);
          await syncFromDisk(instance, path, requestOptions.signal);
        }
      }
      const targets = [...slots.values()].filter((slot) => slot.instance.state === "running" || slot.instance.state === "starting");
      const settled = await Promise.allSettled(
        targets.map(async (slot) => {
          await slot.instance.ready;
          touch(slot);
          const result = await slot.instance.request<T>(method, params, {
            timeoutMs: requestOptions.timeoutMs ?? requestTimeoutMs,
            ...(requestOptions.signal ? { signal: requestOptions.signal } : {}),
          });
          return { serverId: slot.config.id, result };
        }),
      );
      requestOptions.signal?.throwIfAborted();
      const results = settled.flatMap((entry) => (entry.status === "fulfilled" ? [entry.value] : []));
      const firstError = settled.find((entry) => entry.status === "rejected");
      if (results.length === 0 && firstError) throw (firstError as PromiseRejectedResult).reason;
      return results;
    },
    diagnostics: (path, diagnosticsOptions = {}) =>
      withInstance(path, (instance) => currentDiagnostics(instance, path, () => syncFromDisk(instance, path, diagnosticsOptions.signal), diagnosticsOptions)),
    async filesChanged(changes) {
      const perInstance = new Map<LanguageServerInstance, { uri: string; type: 1 | 2 | 3 }[]>();
      for (const change of changes) {
        if (!configFor(change.path)) continue;
        const slot = await slotFor(change.path, false);
        const instance = slot?.instance;
        if (instance?.state !== "running") continue;
        if (change.change === "deleted") await instance.closeDocument(change.path);
        else if (instance.documents.get(change.path)) await syncFromDisk(instance, change.path).catch(() => instance.closeDocument(change.path));
        const list = perInstance.get(instance) ?? [];
        list.push({ uri: uriOfFilePath(change.path), type: change.change === "created" ? 1 : change.change === "modified" ? 2 : 3 });
        perInstance.set(instance, list);
      }
      for (const [instance, list] of perInstance) await instance.watchedFilesChanged(list);
    },
    status() {
      return [...slots.values()].map((slot) => {
        const pid = slot.instance.pid;
        return {
          serverId: slot.config.id,
          root: slot.root,
          state: slot.instance.state,
          ...(pid !== undefined && slot.instance.state !== "stopped" ? { pid } : {}),
          restarts: slot.restarts,
          openDocuments: slot.instance.documents.size,
        };
      });
    },
    async close() {
      closed = true;
      const all = [...slots.values()];
      for (const slot of all) if (slot.idleTimer) clearTimeout(slot.idleTimer);
      await Promise.all([...all.map((slot) => slot.instance.stop()), ...retiring]);
    },
  };
  const internals: LanguageServerManagerInternals = {
    runningInstanceFor(path) {
      const config = configFor(path);
      if (!config) return undefined;
      for (const slot of slots.values()) {
        if (slot.config.id !== config.id || slot.instance.state !== "running") continue;
        if (path === slot.root || path.startsWith(slot.root === "/" ? "/" : `${slot.root}/`)) return slot.instance;
      }
      return undefined;
    },
    instanceFor,
    readText,
    async syncText(instance, path, text) {
      await instance.syncDocument(path, uriOfFilePath(path), requireConfig(path).languageId(extensionOf(path) ?? ""), text);
    },
  };
  Object.defineProperty(manager, MANAGER_INTERNALS, { value: internals, enumerable: false });
  return manager;
}
