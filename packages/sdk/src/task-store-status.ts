import { SdkError, ToolError } from "@agent-tools/core";
import type { SharedStorageLease } from "@agent-tools/storage";
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

const ALTERNATIVES =
  "pass its own store as `tasks.store` to buildBuiltinToolRegistry, or keep tasks in PostgreSQL with `openPostgresStorage` from @agent-tools/storage";

/** Turns a failure of opening the SQLite task store into what the model is told. */
export function taskStoreOpenError(error: unknown): ToolError {
  const details = error instanceof SdkError && error.code === "storage" ? error.details : {};
  const code = String((error as { code?: unknown } | null)?.code ?? "");
  const message = error instanceof Error ? error.message : String(error);
  if (details.transient === true || code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new ToolError("unavailable", `The task store is busy: another connection held the SQLite database's lock too long (${message}). Retry later.`, {
      cause: error,
      details: { reason: "busy", recoverable: true },
    });
  }
  const reason = typeof details.reason === "string" ? details.reason : "other";
  const { what, fix } = explain(reason, details, message);
  return new ToolError(
    "unavailable",
    `The task tools are unavailable: ${what}. Retrying will not help: continue without a task list and tell the user. To fix it, the host can ${fix}, or ${ALTERNATIVES}.`,
    { cause: error, details: { reason, recoverable: false }, recoverable: false },
  );
}

function explain(reason: string, details: Record<string, unknown>, message: string): { what: string; fix: string } {
  const driver = typeof details.package === "string" ? details.package : "better-sqlite3";
  switch (reason) {
    case "driver_missing":
      return {
        what: `the SQLite driver ${driver} is not installed`,
        fix: `install it (npm install ${driver}${typeof details.version === "string" ? `@${details.version}` : ""})`,
      };
    case "driver_unloadable":
      return {
        what: `${driver} is installed but its native module does not load (${message})`,
        fix:
          details.nodedirHint === true
            ? `build it (npm rebuild ${driver}, with install scripts allowed; offline, set npm_config_nodedir to a local Node headers directory first)`
            : `rebuild it for this Node version (npm rebuild ${driver})`,
      };
    case "unsupported_runtime":
      return { what: `${driver} does not run on ${typeof details.runtime === "string" ? details.runtime : "this runtime"}`, fix: "run on Node" };
    case "data_dir_unwritable":
      return { what: `the data directory cannot be written (${message})`, fix: "pass a writable `dataDir`" };
    default:
      return { what: `the SQLite task store could not be opened (${message})`, fix: "fix that cause" };
  }
}
