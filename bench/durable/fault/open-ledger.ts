/** Opens the call ledger of a backend (SQLite file in the data directory, or PostgreSQL) with its storage. */
import type { CallLedger } from "@agent-tools/core/durable";
import { KyselyCallLedger } from "@agent-tools/durable";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import type { FaultHostConfig } from "./host-config.js";

/** A ledger and what releases it. */
export interface OpenedLedger {
  readonly ledger: CallLedger;
  close(): Promise<void>;
}

/** The ledger of `config.backend` (never `none`). */
export async function openLedger(config: Pick<FaultHostConfig, "backend" | "dataDir" | "connectionString">): Promise<OpenedLedger> {
  let storage: Storage;
  if (config.backend === "sqlite") storage = await openSqliteStorage({ dataDir: config.dataDir });
  else if (config.backend === "postgres") storage = await openPostgresStorage({ connectionString: config.connectionString, maxConnections: 2 });
  else throw new Error("openLedger: the control run has no ledger");
  try {
    const ledger = await KyselyCallLedger.open(storage);
    return { ledger, close: () => storage.close() };
  } catch (error) {
    await storage.close();
    throw error;
  }
}
