/**
 * A host-owned set of shared resources (the SQLite storage of a data
 * directory, ...), replacing process-wide caches: what is shared is what the
 * host shares, and it ends when its owner closes it.
 */
import { SdkError } from "../errors.js";

/** Resources created once per hub and key, closed together with the hub. */
export interface ResourceHub {
  /**
   * The hub's value under `key`: made by `create` on the first use, the same
   * value afterwards; `dispose` runs when the hub closes. Throws `SdkError`
   * (`closed`) after `close()`.
   */
  use<T>(key: string, create: () => T, dispose?: (value: T) => Promise<void> | void): T;
  /** Closes every resource, newest first; failures are collected and the first rethrown. Idempotent. */
  close(): Promise<void>;
}

/**
 * Makes a {@link ResourceHub}. Give one hub to several registries to let them
 * share a connection per SQLite file; the host closes it after them.
 *
 * @example
 * const hub = createResourceHub();
 * const a = await buildBuiltinToolRegistry({ workdir, resources: hub });
 * const b = await buildBuiltinToolRegistry({ workdir: other, resources: hub });
 * await a.close(); await b.close(); await hub.close();
 */
export function createResourceHub(): ResourceHub {
  const entries = new Map<string, { value: unknown; dispose?: (value: unknown) => Promise<void> | void }>();
  let closed = false;
  return {
    use<T>(key: string, create: () => T, dispose?: (value: T) => Promise<void> | void): T {
      if (closed) throw new SdkError("closed", `The resource hub was closed; ${key} cannot be used.`);
      const existing = entries.get(key);
      if (existing !== undefined) return existing.value as T;
      const value = create();
      entries.set(key, { value, ...(dispose === undefined ? {} : { dispose: dispose as (value: unknown) => Promise<void> | void }) });
      return value;
    },
    async close() {
      if (closed) return;
      closed = true;
      const all = [...entries.values()].reverse();
      entries.clear();
      const results = await Promise.allSettled(all.map(async (entry) => entry.dispose?.(entry.value)));
      const failed = results.find((result) => result.status === "rejected");
      if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
    },
  };
}
