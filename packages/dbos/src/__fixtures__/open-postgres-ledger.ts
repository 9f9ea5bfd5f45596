/**
 * The call ledger of the tests' DBOS tool host: `@agent-tools/durable`'s
 * `KyselyCallLedger` on a PostgreSQL `Storage` opened and closed with it.
 */
import { openCallLedger } from "@agent-tools/durable";
import { openPostgresStorage } from "@agent-tools/storage";
import type { HostLedger } from "../testing/index.js";

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
