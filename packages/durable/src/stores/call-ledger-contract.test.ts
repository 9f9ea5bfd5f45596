import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CallLedger } from "@agent-tools/core/durable";
import { type Storage, openPostgresStorage } from "@agent-tools/storage";
import { sqliteTestBackends, usePostgresTestCluster } from "@agent-tools/storage/testing";
import { afterAll } from "vitest";
import { InMemoryCallLedger, KyselyCallLedger } from "../index.js";
import { runCallLedgerContract } from "../testing/index.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-call-ledger-"));
const cluster = usePostgresTestCluster();
let postgresUrl: Promise<string> | undefined;
const storages = new Map<CallLedger, Storage>();
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** Each open is a storage of its own (its own SQLite connection or PostgreSQL pool), so two ledgers really race. */
async function kyselyLedger(open: () => Promise<Storage>): Promise<CallLedger> {
  const storage = await open();
  const ledger = await KyselyCallLedger.open(storage);
  storages.set(ledger, storage);
  return ledger;
}
async function disposeKyselyLedger(ledger: CallLedger): Promise<void> {
  await storages.get(ledger)?.close();
  storages.delete(ledger);
}

runCallLedgerContract("in-memory", { open: async () => new InMemoryCallLedger() });

const shared = new InMemoryCallLedger();
runCallLedgerContract("in-memory (one shared instance)", { open: async () => shared, sharedBackend: true });

// Once per SQLite driver of this Node, each on a file of its own.
for (const sqlite of sqliteTestBackends(temporary)) {
  runCallLedgerContract(`Kysely on ${sqlite.label}`, {
    open: () => kyselyLedger(() => sqlite.open({ dataDir: path.join(temporary, sqlite.driver.replace(/\W/g, "-")) })),
    dispose: disposeKyselyLedger,
    sharedBackend: true,
  });
}

runCallLedgerContract("Kysely on PostgreSQL (real server)", {
  open: () => kyselyLedger(async () => openPostgresStorage({ connectionString: await (postgresUrl ??= cluster().createDatabase("ledger")) })),
  dispose: disposeKyselyLedger,
  sharedBackend: true,
});
