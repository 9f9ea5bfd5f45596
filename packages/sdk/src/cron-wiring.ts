import type { ToolPluginHost, ToolPluginOutput } from "@agent-tools/core";
import type { CronHttpToolOptions, CronStore } from "@agent-tools/cron";
import type { Storage } from "@agent-tools/storage";
import { sharedSqliteLease } from "./plugins/shared-sqlite-lease.js";
import { type StoreFeature, taskStoreOpenError } from "./task-store-status.js";

/** The `cron` option of `buildBuiltinToolRegistry` (CronTaskManager, chat and cron scopes). */
export interface SdkCronOptions {
  /**
   * Where tasks and run logs live: a store, or a function opening it on
   * first use. Default: the shared SQLite file `<dataDir>/agent-tools.sqlite`
   * (one scheduler per dataDir); pass a `KyselyCronStore` on PostgreSQL to
   * let several hosts share the tasks.
   */
  readonly store?: CronStore | (() => Promise<CronStore>);
  /** A storage to open the store on (`KyselyCronStore.open`), instead of the shared SQLite file. */
  readonly storage?: Storage | (() => Promise<Storage>);
  /** The host's current chat model id: prompt tasks pin it; without one, creating a prompt task is refused. */
  readonly currentModelId?: () => string | undefined;
  /** IANA time zone new tasks are read in; default the process's. */
  readonly timeZone?: string;
  /**
   * What http tasks may reach besides public addresses:
   * `{ allowedPrivateNetworks: ["10.20.0.0/16", "127.0.0.1"] }` (CIDR blocks
   * or addresses) for an intranet hook or a local service, on purpose.
   * Default none. Recorded with each task created or changed here; a
   * malformed entry or unknown key throws `SdkError`. With the sandbox on
   * and no `allowNetwork`, http tasks are refused whatever this says.
   */
  readonly http?: CronHttpToolOptions;
}

/** How a failure to open the cron store is explained to the model. */
export const CRON_STORE_FEATURE: StoreFeature = {
  store: "cron store",
  tools: "cron tools",
  meanwhile: "continue without scheduling tasks",
  alternatives: "pass `cron.store` or `cron.storage` to buildBuiltinToolRegistry (e.g. PostgreSQL with `openPostgresStorage` from @agent-tools/storage)",
};

/**
 * The cron plugin of a built-in registry: `cronTools` of `@agent-tools/cron`
 * (imported only when cron is on) on the host's store, its storage, or the
 * SQLite file of the registry's resource hub, opened on the first call and
 * explained like the task store when it cannot open.
 */
export async function createSdkCronBundle(options: SdkCronOptions, host: ToolPluginHost): Promise<ToolPluginOutput> {
  const { KyselyCronStore, cronTools } = await import("@agent-tools/cron");
  const openStorage = async (): Promise<Storage> => {
    if (options.storage !== undefined) return typeof options.storage === "function" ? options.storage() : options.storage;
    return sharedSqliteLease(host).get();
  };
  const store =
    options.store ??
    (async () => {
      try {
        return await KyselyCronStore.open(await openStorage());
      } catch (error) {
        throw taskStoreOpenError(error, CRON_STORE_FEATURE);
      }
    });
  return cronTools({
    store,
    ...(options.currentModelId === undefined ? {} : { currentModelId: options.currentModelId }),
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    ...(options.http === undefined ? {} : { http: options.http }),
  }).create(host);
}
