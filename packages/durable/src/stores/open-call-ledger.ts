import type { Storage } from "@agent-tools/storage";
import { KyselyCallLedger } from "./kysely-call-ledger.js";

/**
 * Opens the call ledger on a storage: applies its migrations (namespace
 * `durable`) and answers a {@link KyselyCallLedger}. Same as
 * `KyselyCallLedger.open(storage)`; the storage stays the caller's to close.
 *
 * @example
 * const storage = await openSqliteStorage({ dataDir: "/var/lib/my-agent" });
 * const ledger = await openCallLedger(storage);
 */
export function openCallLedger(storage: Storage): Promise<KyselyCallLedger> {
  return KyselyCallLedger.open(storage);
}
