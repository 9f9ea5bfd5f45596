import { type ResourceHub, SdkError } from "@agent-tools/core";
import { type SqliteStorageOptions, openSqliteStorage, resolveSqliteFilename } from "./open-sqlite-storage.js";
import { parseSqliteDriverChoice } from "./sqlite-driver.js";
import type { Storage } from "./storage.js";

/** A hold on the SQLite storage of a file. */
export interface SharedStorageLease {
  /** The absolute file (or `:memory:`, which is never shared). */
  readonly filename: string;
  /**
   * The storage, opened on the first call (of any lease of the same hub and
   * file); a failed open is retried by the next call. Rejects after `release()`.
   */
  get(): Promise<Storage>;
  /** Gives the hold back; a lease of its own closes its storage (a hub's storage closes with the hub). Idempotent. */
  release(): Promise<void>;
}

/** Options of {@link leaseSqliteStorage}. */
export interface SqliteLeaseOptions extends SqliteStorageOptions {
  /**
   * The host's hub: every lease of one file on this hub gets the same
   * {@link Storage}, closed when the hub closes. Without it the lease opens
   * its own connection and `release()` closes it.
   */
  readonly resources?: ResourceHub;
}

/**
 * Leases the SQLite storage of `<dataDir>/agent-tools.sqlite` (or
 * `filename`), opened lazily. With `resources`, one storage per file and
 * hub, shared by every lease on that hub and closed with the hub (nothing is
 * shared across hubs, so across registries only when the host gives them one
 * hub); without, a storage of its own. Stores built on it must not close it.
 * The first lease of a file on a hub sets its `driver`: later leases with
 * `"auto"` (the default) share it, and a later lease naming a different driver
 * (or any driver after an `"auto"` first lease) throws `SdkError("invalid_options")`. A bad driver name throws at lease time.
 *
 * @example
 * const hub = createResourceHub();
 * const lease = leaseSqliteStorage({ dataDir, resources: hub });
 * const store = await KyselyTaskStateStore.open(await lease.get());
 * // ... when the host is done:
 * await hub.close();
 */
export function leaseSqliteStorage(options: SqliteLeaseOptions): SharedStorageLease {
  const { resources, ...storageOptions } = options;
  const choice = parseSqliteDriverChoice(storageOptions.driver); // a bad driver fails at lease time, not on first use
  const filename = resolveSqliteFilename(storageOptions);
  if (filename === ":memory:" || resources === undefined) return privateLease({ ...storageOptions, filename });
  const held = resources.use(
    `@agent-tools/storage:sqlite:${filename}`,
    () => ({ choice, storage: lazyStorage({ ...storageOptions, filename }) }),
    (first) => first.storage.close(),
  );
  // A later "auto" lease takes the driver the first lease chose; a lease naming a driver must be the first or agree.
  if (choice !== "auto" && held.choice !== choice) {
    throw new SdkError(
      "invalid_options",
      `leaseSqliteStorage: ${filename} is already leased on this hub with driver "${held.choice}"; a lease asks for "${choice}". Lease it with one driver (or "auto").`,
      { filename, driver: choice, leasedDriver: held.choice },
    );
  }
  const shared = held.storage;
  let released = false;
  return {
    filename,
    get() {
      if (released) return Promise.reject(new Error(`This lease of ${filename} was released.`));
      return shared.get();
    },
    async release() {
      released = true;
    },
  };
}

/** A storage opened on the first `get` (a failed open is retried by the next), closed by `close`. */
function lazyStorage(options: SqliteStorageOptions): { get(): Promise<Storage>; close(): Promise<void> } {
  let opening: Promise<Storage> | undefined;
  let closed = false;
  return {
    get() {
      if (closed) return Promise.reject(new Error(`The storage of ${options.filename ?? options.dataDir} was closed with its resource hub.`));
      opening ??= openSqliteStorage(options).catch((error: unknown) => {
        opening = undefined;
        throw error;
      });
      return opening;
    },
    async close() {
      closed = true;
      const storage = await opening?.catch(() => undefined);
      await storage?.close();
    },
  };
}

/** A storage of this lease alone (always for `:memory:`: sharing it would change what it means). */
function privateLease(options: SqliteStorageOptions): SharedStorageLease {
  let opening: Promise<Storage> | undefined;
  let released = false;
  return {
    filename: resolveSqliteFilename(options),
    get() {
      if (released) return Promise.reject(new Error(`This lease of ${resolveSqliteFilename(options)} was released.`));
      opening ??= openSqliteStorage(options);
      return opening;
    },
    async release() {
      if (released) return;
      released = true;
      const storage = await opening?.catch(() => undefined);
      await storage?.close();
    },
  };
}
