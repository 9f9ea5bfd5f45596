import { type FileCheckpointRecorder, type RuntimeScope, type ToolPorts, resolveDataDir } from "@agent-tools/core";
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

/** The `checkpoints` option of `buildBuiltinToolRegistry`: the checkpoint every call records into, and where records live. */
export interface SdkCheckpointOptions extends SdkCheckpointStoreOptions {
  /** Every call (chat scope) records into this checkpoint, e.g. `"<conversation>:<turn>"`; a call's own `checkpointId` wins. */
  readonly id?: string;
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
 * The ports of a built-in registry with its checkpoint recorder: in the chat
 * scope, a recorder over the host's store or the shared SQLite file in
 * `ports.fileCheckpoints` (unless the host gave its own), so calls with a
 * `checkpointId`, or every call when `checkpoints.id` is set, record what
 * Write, Edit and Delete change. The cron scope records nothing: a scheduled
 * run has no turn to rewind.
 *
 * @example
 * const ports = withCheckpointRecorder({ runtimeScope: "chat", ports: createNodePorts(), sharedStorage });
 */
export function withCheckpointRecorder<P extends ToolPorts>(input: {
  readonly checkpoints?: SdkCheckpointStoreOptions;
  /** The host's own recorder (`ports.fileCheckpoints`), which wins. */
  readonly hostRecorder?: FileCheckpointRecorder;
  readonly runtimeScope: RuntimeScope;
  readonly ports: P;
  readonly sharedStorage: () => SharedStorageLease;
}): P {
  if (input.runtimeScope !== "chat") return input.ports;
  const recorder: FileCheckpointRecorder =
    input.hostRecorder ?? input.ports.fileCheckpoints ?? createFileCheckpoints({ store: storeOf(input.checkpoints, input.sharedStorage) });
  return Object.create(input.ports, { fileCheckpoints: { value: recorder, enumerable: true } }) as P;
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
