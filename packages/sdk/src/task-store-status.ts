import { SdkError, ToolError } from "@agent-tools/core";
import type { SharedStorageLease } from "@agent-tools/storage";
import type { MemoryIndexStore } from "@agent-tools/memory";
import { KyselyMemoryIndexStore } from "@agent-tools/memory";
import { KyselyTaskStateStore, type TaskStateStore } from "@agent-tools/tools-tasks";

/**
 * The task store factory of {@link buildBuiltinToolRegistry} on the shared
 * SQLite file. A failed open rejects with a `ToolError` the task tools answer
 * with: a transient one (a lock held too long) says to retry later; a
 * permanent one (better-sqlite3 missing or not loading, an unsupported
 * runtime, an unwritable `dataDir`) says what happened and what the host can
 * do, and is not recoverable, so the task runtime reports it once through
 * the registry's logger.
 */
export function sqliteTaskStoreFactory(storage: SharedStorageLease): () => Promise<TaskStateStore> {
  return async () => {
    try {
      return await KyselyTaskStateStore.open(await storage.get());
    } catch (error) {
      throw taskStoreOpenError(error);
    }
  };
}

/** The feature whose store failed to open, as the model is told about it. */
export interface StoreFeature {
  /** E.g. "task store". */
  readonly store: string;
  /** E.g. "task tools". */
  readonly tools: string;
  /** What the model should do meanwhile, e.g. "continue without a task list". */
  readonly meanwhile: string;
  /** What else the host can do. */
  readonly alternatives: string;
}

/** The task tools' wording. */
export const TASK_STORE_FEATURE: StoreFeature = {
  store: "task store",
  tools: "task tools",
  meanwhile: "continue without a task list",
  alternatives:
    "pass its own store as `tasks.store` to buildBuiltinToolRegistry, or keep tasks in PostgreSQL with `openPostgresStorage` from @agent-tools/storage",
};

/** The memory tool's wording (the Markdown files stay; only the index cannot open). */
export const MEMORY_STORE_FEATURE: StoreFeature = {
  store: "memory index",
  tools: "memory tools",
  meanwhile: "continue without long-term memory",
  alternatives:
    "pass `memory.store` or `memory.storage` to buildBuiltinToolRegistry (e.g. PostgreSQL with `openPostgresStorage` from @agent-tools/storage, or the in-memory index rebuilt from the Markdown files on each start), or turn memory off with `memory: false`",
};

/** Turns a failure of opening a SQLite store (the task store by default) into what the model is told. */
export function taskStoreOpenError(error: unknown, feature: StoreFeature = TASK_STORE_FEATURE): ToolError {
  const details = error instanceof SdkError && error.code === "storage" ? error.details : {};
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const message = error instanceof Error ? error.message : String(error);
  if (details.transient === true || code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new ToolError(
      "unavailable",
      `The ${feature.store} is busy: another connection held the SQLite database's lock too long (${message}). Retry later.`,
      {
        cause: error,
        details: { reason: "busy", recoverable: true },
      },
    );
  }
  const reason = typeof details.reason === "string" ? details.reason : "other";
  const { what, fix } = explain(reason, details, message, feature);
  return new ToolError(
    "unavailable",
    `The ${feature.tools} are unavailable: ${what}. Retrying will not help: ${feature.meanwhile} and tell the user. To fix it, the host can ${fix}, or ${feature.alternatives}.`,
    { cause: error, details: { reason, recoverable: false }, recoverable: false },
  );
}

/** Where better-sqlite3 cannot serve, a Node with SQLite built in needs no driver at all. */
const BUILTIN_SQLITE_ALTERNATIVE = ", or run the host on Node 22.16+ or 24+, whose built-in node:sqlite needs no driver";

function explain(reason: string, details: Record<string, unknown>, message: string, feature: StoreFeature): { what: string; fix: string } {
  const driver = typeof details.package === "string" ? details.package : "better-sqlite3";
  switch (reason) {
    case "driver_missing":
      return {
        what: `the SQLite driver ${driver} is not installed`,
        fix: `install it (npm install ${driver}${typeof details.version === "string" ? `@${details.version}` : ""})${BUILTIN_SQLITE_ALTERNATIVE}`,
      };
    case "driver_unloadable":
      return {
        what: `${driver} is installed but its native module does not load (${message})`,
        fix:
          details.nodedirHint === true
            ? `build it (npm rebuild ${driver}, with install scripts allowed; offline, set npm_config_nodedir to a local Node headers directory first)`
            : `rebuild it for this Node version (npm rebuild ${driver})${BUILTIN_SQLITE_ALTERNATIVE}`,
      };
    case "unsupported_runtime":
      return { what: `${driver} does not run on ${typeof details.runtime === "string" ? details.runtime : "this runtime"}`, fix: "run on Node" };
    case "data_dir_unwritable":
      return { what: `the data directory cannot be written (${message})`, fix: "pass a writable `dataDir`" };
    default:
      return { what: `the SQLite ${feature.store} could not be opened (${message})`, fix: "fix that cause" };
  }
}

/**
 * The memory index factory of {@link buildBuiltinToolRegistry} on the shared
 * SQLite file; failures are reported as for the task store, in the memory
 * tool's words.
 */
export function sqliteMemoryStoreFactory(storage: SharedStorageLease): () => Promise<MemoryIndexStore> {
  return async () => {
    try {
      return await KyselyMemoryIndexStore.open(await storage.get());
    } catch (error) {
      throw taskStoreOpenError(error, MEMORY_STORE_FEATURE);
    }
  };
}
