import { SdkError, type ToolBundle, type ToolContext, type ToolDefinition, ToolError } from "@agent-tools/core";
import type { EmbeddingClient } from "@agent-tools/core/embedding";
import type { Storage } from "@agent-tools/storage";
import { InMemoryMemoryIndexStore } from "../ports/in-memory-memory-index-store.js";
import type { MemoryIndexStore } from "../ports/memory-index-store.js";
import { KyselyMemoryIndexStore } from "../stores/kysely-memory-index-store.js";
import { checkMemoryEmbedder } from "../runtime/memory-embedding-options.js";
import type { MemoryHistorySearch } from "../runtime/memory-history.js";
import { type MemoryService, openMemoryService } from "../runtime/memory-service.js";
import { type MemoryToolMode, createMemoryManagerTool } from "./memory-manager-tool.js";

/** Options of {@link createMemoryToolBundle}. */
export interface MemoryToolBundleOptions {
  /** `rw` (default): every action; `ro`: list, read and search only. */
  readonly mode?: MemoryToolMode;
  /** A service the host opened (and closes); the options below are then ignored. */
  readonly service?: MemoryService;
  /**
   * The database of the index: the bundle opens the Kysely store on it (and
   * its migrations) on the first call. The storage stays the host's.
   */
  readonly storage?: Storage | (() => Promise<Storage>);
  /**
   * The index store itself, or a factory opened on the first call and closed
   * with the bundle. Default (no `storage`, no `store`): an in-memory index,
   * rebuilt from the Markdown files on every open.
   */
  readonly store?: MemoryIndexStore | (() => Promise<MemoryIndexStore>);
  /** Where the SDK keeps its files; default the registry's `dataDir`. The files go to `<dataDir>/memory`. */
  readonly dataDir?: string;
  /** The memory root, overriding `<dataDir>/memory`. */
  readonly root?: string;
  /** IANA time zone of the daily journal; default the process's. */
  readonly timeZone?: string;
  /** The host's chat-history search, for `include_history`. */
  readonly historySearch?: MemoryHistorySearch;
  /** Non-daily entries per scope; default 500. */
  readonly entriesPerScope?: number;
  /** Clock (epoch ms); default `Date.now`. */
  readonly now?: () => number;
  /**
   * A text embedding model for search by meaning (hybrid search): entries
   * are embedded in the background after each write and on open. Without
   * it search is lexical only. Anything but an `EmbeddingClient` throws `SdkError`.
   */
  readonly embedder?: EmbeddingClient;
}

/** The memory bundle, with the service behind the tool (opened on the first call). */
export interface MemoryToolBundle extends ToolBundle {
  /** The service of `workdir` (opened once; `workdir` is the registry's). */
  service(workdir: string, dataDir: string): Promise<MemoryService>;
}

/**
 * MemoryManager as a bundle, in the chat and cron scopes. The service (and
 * the store, unless the host gave one) is opened on the first call, with
 * the registry's workdir and dataDir, and closed with the bundle.
 *
 * @example
 * const memory = createMemoryToolBundle({ storage, mode: "rw" });
 * const registry = createToolRegistry({ workdir, dataDir, bundles: [memory] });
 * await registry.executeToolCall({ id: "1", name: "MemoryManager", arguments: { action: "list" } });
 * await registry.close(); // closes the service and the store it opened
 */
export function createMemoryToolBundle(options: MemoryToolBundleOptions = {}): MemoryToolBundle {
  const mode = options.mode ?? "rw";
  checkMemoryEmbedder(options.embedder, "embedder");
  if (options.service !== undefined && options.embedder !== undefined) {
    // A ready service has its embedder (or none) from openMemoryService: this one would be silently unused.
    throw new SdkError("invalid_options", "embedder cannot be given with service: pass the embedder to openMemoryService when opening the service.", {
      option: "embedder",
    });
  }
  const services = new Map<string, Promise<MemoryService>>();
  let closed = false;

  async function openStore(): Promise<{ store: MemoryIndexStore; owned: boolean }> {
    if (options.store !== undefined) {
      if (typeof options.store === "function") return { store: await options.store(), owned: true };
      return { store: options.store, owned: false };
    }
    if (options.storage !== undefined) {
      const storage = typeof options.storage === "function" ? await options.storage() : options.storage;
      return { store: await KyselyMemoryIndexStore.open(storage), owned: true };
    }
    return { store: new InMemoryMemoryIndexStore(), owned: true };
  }

  function service(workdir: string, dataDir: string, workdirIsCanonical = false): Promise<MemoryService> {
    if (options.service !== undefined) return Promise.resolve(options.service);
    const id = `${options.dataDir ?? dataDir}\u0000${workdir}`;
    let opening = services.get(id);
    if (opening === undefined) {
      opening = (async () => {
        const { store, owned } = await openStore();
        try {
          return await openMemoryService({
            dataDir: options.dataDir ?? dataDir,
            store,
            closeStore: owned,
            workdir,
            ...(workdirIsCanonical ? { workdirIsCanonical } : {}),
            ...(options.root === undefined ? {} : { root: options.root }),
            ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
            ...(options.historySearch === undefined ? {} : { historySearch: options.historySearch }),
            ...(options.entriesPerScope === undefined ? {} : { entriesPerScope: options.entriesPerScope }),
            ...(options.now === undefined ? {} : { now: options.now }),
            ...(options.embedder === undefined ? {} : { embedder: options.embedder }),
          });
        } catch (error) {
          if (owned) await store.close?.().catch(() => undefined);
          throw error;
        }
      })();
      services.set(id, opening);
      // A failed open is retried by the next call.
      opening.catch(() => services.delete(id));
    }
    return opening;
  }

  let reportedUnavailable = false;
  const resolve = async (context: ToolContext) => {
    if (closed) throw new ToolError("unavailable", "The memory tools were closed with their registry.", { recoverable: false });
    try {
      // On a non-local workspace the registry's workdir is canonical there, not a path of this disk to realpath;
      // the project is named by the workspace's label and that path, so /srv/app on two machines (or on this
      // disk) are two projects, never one.
      const workspace = context.ports.workspace;
      if (workspace !== undefined && !workspace.capabilities.localPaths) {
        return await service(`${workspace.label}${context.workdir}`, context.dataDir, true);
      }
      return await service(context.workdir, context.dataDir);
    } catch (error) {
      // A store that cannot open for good is reported to the host once; the model gets the error on every call.
      if (error instanceof ToolError && !error.recoverable && !reportedUnavailable) {
        reportedUnavailable = true;
        context.logger.warn(`Memory tools: ${error.message}`, { code: error.code, details: error.details });
      }
      throw error;
    }
  };
  const tools: ToolDefinition[] = [createMemoryManagerTool(resolve, mode)];
  return {
    id: "memory",
    trusted: true,
    service,
    listTools: () => tools,
    async close() {
      closed = true;
      const opened = [...services.values()];
      services.clear();
      await Promise.all(opened.map((opening) => opening.then((memory) => memory.close()).catch(() => undefined)));
    },
  };
}
