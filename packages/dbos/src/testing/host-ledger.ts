/**
 * The call ledger of the DBOS tool host: `@agent-tools/durable`'s
 * `KyselyCallLedger` on a PostgreSQL `Storage` the host opens and closes.
 */
import type { CallLedger } from "@agent-tools/core/durable";
import { openCallLedger } from "@agent-tools/durable";
import { openPostgresStorage } from "@agent-tools/storage";

/** An open ledger and what to close. */
export interface HostLedger {
  readonly ledger: CallLedger;
  /** Closes the storage under the ledger. */
  close(): Promise<void>;
}

/** Opens the host's call ledger on the PostgreSQL database at `connectionString` (applying its migrations). */
export async function openHostLedger(connectionString: string): Promise<HostLedger> {
  const storage = await openPostgresStorage({ connectionString, maxConnections: 2 });
  try {
    return { ledger: await openCallLedger(storage), close: () => storage.close() };
  } catch (error) {
    await storage.close();
    throw error;
  }
}
