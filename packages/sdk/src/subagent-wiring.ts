import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { ModelClient, ToolPluginHost, ToolPluginOutput } from "@agent-tools/core";
import {
  type AgentPromptTemplate,
  GitSubagentWorktrees,
  KyselySubagentStore,
  type SubagentSchedulerLimits,
  type SubagentStore,
  type SubagentToolBundle,
  type SubagentWorktrees,
  WorkspaceSubagentWorktrees,
  subagentTools,
} from "@agent-tools/subagents";
import { sharedSqliteLease } from "./plugins/shared-sqlite-lease.js";
import { type StoreFeature, taskStoreOpenError } from "./task-store-status.js";

/** How a subagent store that cannot open is explained to the model (as for the task store). */
export const SUBAGENT_STORE_FEATURE: StoreFeature = {
  store: "subagent store",
  tools: "subagent tools",
  meanwhile: "continue without subagents",
  alternatives:
    "pass its own store as `subagents.store` to buildBuiltinToolRegistry (e.g. a `KyselySubagentStore` on PostgreSQL with `openPostgresStorage` from @agent-tools/storage)",
};

/** The `subagents` option of `buildBuiltinToolRegistry` (chat scope only). */
export interface SdkSubagentOptions {
  /** The model children run on (usually the parent's). */
  readonly model: ModelClient;
  /**
   * The parent conversation: runs, identities and the message bus persist
   * under it (resume across restarts, SendMessage). Default: the registry's
   * `conversationId`. Without either nothing persists and SendMessage is not
   * offered.
   */
  readonly conversationId?: string;
  /** Where they persist; default the shared SQLite file in `dataDir`. */
  readonly store?: SubagentStore;
  /** Prompt templates (at most one enabled is used; a function follows the host's settings). */
  readonly templates?: readonly AgentPromptTemplate[] | (() => readonly AgentPromptTemplate[]);
  /**
   * Worktree children always refused, an omitted mode is readonly. The
   * parent registry's plan mode does the same while it is on, without this.
   */
  readonly forceReadonly?: boolean;
  /** No MCP business tools for readonly children either. */
  readonly strictReadOnly?: boolean;
  /** Rounds a child may take (default 40). */
  readonly maxRounds?: number;
  /** Runs and Bash executions at once (default 8 and 4). */
  readonly limits?: SubagentSchedulerLimits;
  /** Names worktrees, e.g. the host's session id. */
  readonly sessionLabel?: string;
  /** Called with the bundle once built: e.g. to take `parentBus` for the host's loop (bus deltas after tool results). */
  readonly onReady?: (bundle: SubagentToolBundle) => void;
}

/**
 * The subagent bundle of a chat registry: worktrees through the registry's
 * GitClient (on a non-local workspace: through the workspace's git and file
 * system, `WorkspaceSubagentWorktrees`), the store on the shared SQLite
 * unless given (the host's data stays on the host). A worktree apply
 * that a killed host left half done in the workdir's repository is rolled
 * back first (logged; a failure to do so is logged and retried by the next
 * apply).
 */
export async function createSdkSubagentBundle(options: SdkSubagentOptions, host: ToolPluginHost): Promise<ToolPluginOutput> {
  const context = { workdir: host.workdir, logger: host.logger };
  // On a non-local workspace, worktrees are made by the workspace's git and written through its file system (no journal to recover).
  const workspace = host.ports.workspace?.capabilities.localPaths === false ? host.ports.workspace : undefined;
  const worktrees: SubagentWorktrees =
    workspace === undefined
      ? new GitSubagentWorktrees({ git: host.ports.gitClient })
      : new WorkspaceSubagentWorktrees({
          workspace,
          journalKey: await workspaceJournalKey(host.dataDir),
          journalLedger: workspaceJournalLedger(host.dataDir),
        });
  try {
    const recovered = await worktrees.recover?.({ workdir: context.workdir });
    if (recovered?.journalRefused !== undefined)
      context.logger?.warn("refused the journal of a subagent apply (nothing rolled back; it is kept for a person to look at)", { ...recovered });
    else if (recovered !== undefined) context.logger?.warn("rolled back a subagent apply a stopped host left half done", { ...recovered });
  } catch (error) {
    context.logger?.warn("could not roll back a subagent apply a stopped host left half done; the next apply retries", {
      workdir: context.workdir,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  const persistent = (options.conversationId ?? "") !== "";
  let warned = false;
  const openShared = async (): Promise<SubagentStore> => {
    try {
      return await KyselySubagentStore.open(await sharedSqliteLease(host).get());
    } catch (error) {
      // Said in the task tools' words: what failed, whether retrying helps, what the host can do.
      const failure = taskStoreOpenError(error, SUBAGENT_STORE_FEATURE);
      if (!failure.recoverable && !warned) {
        warned = true;
        context.logger?.warn("the subagent store could not be opened; Agent starts no subagents until it can", { error: failure.message });
      }
      throw failure;
    }
  };
  const store = options.store ?? (persistent ? lazySubagentStore(openShared) : undefined);
  const { onReady, store: _store, ...rest } = options;
  return subagentTools({
    ...rest,
    ...(store === undefined ? {} : { store }),
    worktrees,
    ...(onReady === undefined ? {} : { onReady }),
  }).create(host);
}

/** A store opened on its first use (the shared SQLite file is only leased when subagents actually run). */
function lazySubagentStore(open: () => Promise<SubagentStore>): SubagentStore {
  let opening: Promise<SubagentStore> | undefined;
  const store = () => {
    opening ??= open().catch((error: unknown) => {
      opening = undefined; // a later call tries again
      throw error;
    });
    return opening;
  };
  return {
    upsertIdentity: async (...args) => (await store()).upsertIdentity(...args),
    listIdentities: async (...args) => (await store()).listIdentities(...args),
    saveRun: async (...args) => (await store()).saveRun(...args),
    loadRun: async (...args) => (await store()).loadRun(...args),
    listRuns: async (...args) => (await store()).listRuns(...args),
    pruneRuns: async (...args) => (await store()).pruneRuns(...args),
    appendMessage: async (...args) => (await store()).appendMessage(...args),
    listMessages: async (...args) => (await store()).listMessages(...args),
    async close() {
      if (opening !== undefined) await (await opening.catch(() => undefined))?.close?.();
    },
  };
}

/**
 * The key that signs the crash journal of subagent applies on a non-local
 * workspace (`<dataDir>/subagents/workspace-journal.key`, 32 random bytes,
 * owner-only), made on first use: a later host on the same `dataDir`
 * recognises the journals of a killed one, and a journal the workspace's
 * commands forged is never acted on.
 */
async function workspaceJournalKey(dataDir: string): Promise<Buffer> {
  const file = path.join(dataDir, "subagents", "workspace-journal.key");
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    await fs.writeFile(file, randomBytes(32), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
  }
  const key = await fs.readFile(file);
  if (key.length < 32) throw new Error(`${file} is not a subagent journal key (${key.length} bytes); remove it to have a new one made`);
  return key;
}

/**
 * The journals of subagent applies on a non-local workspace this host wrote
 * and has not finished with, one empty file per journal id in
 * `<dataDir>/subagents/workspace-journals/`: a journal of a finished apply
 * planted again by the workspace's commands is not open, so never acted on.
 */
function workspaceJournalLedger(dataDir: string) {
  const folder = path.join(dataDir, "subagents", "workspace-journals");
  const fileOf = (id: string) => (/^[0-9a-f]{16,64}$/.test(id) ? path.join(folder, id) : undefined);
  return {
    async opened(id: string) {
      const file = fileOf(id);
      if (file === undefined) throw new Error(`not a journal id: ${id.slice(0, 80)}`);
      await fs.mkdir(folder, { recursive: true, mode: 0o700 });
      await fs.writeFile(file, "", { mode: 0o600 });
    },
    async closed(id: string) {
      const file = fileOf(id);
      if (file !== undefined) await fs.rm(file, { force: true });
    },
    async isOpen(id: string) {
      const file = fileOf(id);
      return (
        file !== undefined &&
        (await fs.stat(file).then(
          () => true,
          () => false,
        ))
      );
    },
  };
}
