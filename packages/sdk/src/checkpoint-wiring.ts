import { type FileCheckpointRecorder, type RuntimeScope, SdkError, type ToolPorts, resolveDataDir } from "@agent-tools/core";
import { type CheckpointStore, type FileCheckpoints, KyselyCheckpointStore, createFileCheckpoints } from "@agent-tools/checkpoints";
import { type SharedStorageLease, type Storage, leaseSqliteStorage } from "@agent-tools/storage";

/** The `checkpoints` option of `buildBuiltinToolRegistry` and the options of {@link openFileCheckpoints}: where checkpoint records live. */
export interface SdkCheckpointStoreOptions {
  /**
   * A store, or a function opening it on first use. Default: the shared
   * SQLite file `<dataDir>/agent-tools.sqlite` (table
   * `agent_tools_checkpoint_entries`); pass a `KyselyCheckpointStore` on
   * PostgreSQL to rewind from another host.
   */
  readonly store?: CheckpointStore | (() => Promise<CheckpointStore>);
  /** A storage to open the store on (`KyselyCheckpointStore.open`), instead of the shared SQLite file. */
  readonly storage?: Storage | (() => Promise<Storage>);
}

/** What the checkpoint options add to the registry: the ports (with the recorder) and the registry's checkpoint. */
/** The `checkpoints` option of `buildBuiltinToolRegistry`: the checkpoint every call records into, and where records live. */
export interface SdkCheckpointOptions extends SdkCheckpointStoreOptions {
  /** Every call (chat scope) records into this checkpoint, e.g. `"<conversation>:<turn>"`; a call's own `checkpointId` wins. */
  readonly id?: string;
}

export interface SdkCheckpointRegistryOptions<P extends ToolPorts> {
  readonly ports: P;
  readonly checkpoint?: { id: string };
}

function checkCheckpoint(checkpoint: unknown): { id: string } | undefined {
  if (checkpoint === undefined) return undefined;
  const id = (checkpoint as { id?: unknown } | null)?.id;
  if (typeof id !== "string" || id === "") {
    throw new SdkError("invalid_options", `checkpoint must be { id: <non-empty string> } (e.g. "<conversation>:<turn>"), not ${JSON.stringify(checkpoint)}.`);
  }
  return { id };
}

/** The store of the options, opened lazily; a failure to open says what the host can do. */
function storeOf(options: SdkCheckpointStoreOptions | undefined, lease: () => SharedStorageLease): CheckpointStore | (() => Promise<CheckpointStore>) {
  if (options?.store !== undefined) return options.store;
  const given = options?.storage;
  // Leased now (a lease is cheap; the file opens on first use), so the registry's cleanups release it.
  const shared = given === undefined ? lease() : undefined;
  return async () => {
    let storage: Storage;
    try {
      storage = given === undefined ? await shared!.get() : typeof given === "function" ? await given() : given;
      return await KyselyCheckpointStore.open(storage);
    } catch (error) {
      throw new Error(
        `the checkpoint store could not be opened: ${error instanceof Error ? error.message : String(error)}. The host can pass checkpoints.store or checkpoints.storage (e.g. PostgreSQL) to buildBuiltinToolRegistry`,
      );
    }
  };
}

/**
 * The checkpoint part of a built-in registry: in the chat scope, a recorder
 * over the host's store or the shared SQLite file in `ports.fileCheckpoints`
 * (unless the host gave its own), so calls with a `checkpointId`, or every
 * call when `checkpoint` is set, record what Write, Edit and Delete change.
 * The cron scope records nothing: a scheduled run has no turn to rewind.
 *
 * @example
 * const extra = sdkCheckpointRegistryOptions({ checkpoint: { id: "c1:t3" }, runtimeScope: "chat", ports, sharedStorage });
 * const registry = createToolRegistry({ workdir, bundles, ...extra });
 */
export function sdkCheckpointRegistryOptions<P extends ToolPorts>(input: {
  readonly checkpoint?: { id: string };
  readonly checkpoints?: SdkCheckpointStoreOptions;
  /** The host's own recorder (`ports.fileCheckpoints`), which wins. */
  readonly hostRecorder?: FileCheckpointRecorder;
  readonly runtimeScope: RuntimeScope;
  readonly ports: P;
  readonly sharedStorage: () => SharedStorageLease;
}): SdkCheckpointRegistryOptions<P> {
  const checkpoint = checkCheckpoint(input.checkpoint);
  if (input.runtimeScope !== "chat") return { ports: input.ports };
  const recorder: FileCheckpointRecorder =
    input.hostRecorder ?? input.ports.fileCheckpoints ?? createFileCheckpoints({ store: storeOf(input.checkpoints, input.sharedStorage) });
  const ports = Object.create(input.ports, { fileCheckpoints: { value: recorder, enumerable: true } }) as P;
  return { ports, ...(checkpoint ? { checkpoint } : {}) };
}

/** Options of {@link openFileCheckpoints}. */
export interface OpenFileCheckpointsOptions extends SdkCheckpointStoreOptions {
  /** The data directory whose shared SQLite file holds the records (as given to `buildBuiltinToolRegistry`); default `~/.agent-tools`. */
  readonly dataDir?: string;
}

/** {@link FileCheckpoints} plus the release of what it opened. */
export interface OpenedFileCheckpoints extends FileCheckpoints {
  /** Releases its hold on the shared SQLite file (the last holder closes it). Idempotent; a host's store or storage is left open. */
  close(): Promise<void>;
}

/**
 * The checkpoints a built-in registry records, for the host to list, rewind
 * and discard, with or without a registry: over the same store (by default
 * the shared SQLite file of `dataDir`).
 *
 * @example
 * const checkpoints = openFileCheckpoints({ dataDir });
 * const report = await checkpoints.rewindCheckpoint("conversation-1:turn-3");
 * for (const conflict of report.conflicts) console.warn(`${conflict.path}: ${conflict.reason}`);
 * await checkpoints.close();
 */
export function openFileCheckpoints(options: OpenFileCheckpointsOptions = {}): OpenedFileCheckpoints {
  let lease: SharedStorageLease | undefined;
  const store = storeOf(options, () => (lease ??= leaseSqliteStorage({ dataDir: resolveDataDir(options.dataDir) })));
  const checkpoints = createFileCheckpoints({ store });
  return {
    ...checkpoints,
    async close() {
      await lease?.release();
    },
  };
}
