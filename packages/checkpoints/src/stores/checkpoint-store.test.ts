import path from "node:path";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { createStoreTestBackends } from "@agent-tools/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemoryCheckpointStore } from "../ports/in-memory-checkpoint-store.js";
import { runCheckpointStoreContract } from "../testing/checkpoint-store-contract.js";
import { CHECKPOINTS_STORAGE_MIGRATIONS, CHECKPOINTS_STORAGE_NAMESPACE } from "./checkpoint-migrations.js";
import { KyselyCheckpointStore } from "./kysely-checkpoint-store.js";

const backends = createStoreTestBackends("agent-tools-checkpoint-store-");
let counter = 0;

beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

runCheckpointStoreContract({ name: "in-memory", open: async () => ({ store: new InMemoryCheckpointStore(), close: async () => undefined }) });

for (const sqlite of backends.sqlite) {
  runCheckpointStoreContract({
    name: `Kysely on ${sqlite.label}`,
    async open() {
      counter += 1;
      const storage = await sqlite.open({ dataDir: path.join(backends.temporary, `sqlite-${counter}`) });
      return { store: await KyselyCheckpointStore.open(storage), close: () => storage.close() };
    },
  });
}

runCheckpointStoreContract({
  name: "Kysely on PostgreSQL (real server)",
  async open() {
    const storage = await openPostgresStorage({ connectionString: await backends.cluster().createDatabase("checkpoints") });
    return { store: await KyselyCheckpointStore.open(storage), close: () => storage.close() };
  },
  async openMany(count) {
    const url = await backends.cluster().createDatabase("checkpoints");
    const storages: Storage[] = [];
    for (let index = 0; index < count; index += 1) storages.push(await openPostgresStorage({ connectionString: url }));
    const stores = [];
    for (const storage of storages) stores.push(await KyselyCheckpointStore.open(storage));
    return { stores, close: async () => void (await Promise.all(storages.map((storage) => storage.close()))) };
  },
});

describe("KyselyCheckpointStore", () => {
  it("migrates once in the checkpoints namespace and keeps entries across a reopen of the SQLite file", async () => {
    const dataDir = path.join(backends.temporary, "reopen");
    const first = await openSqliteStorage({ dataDir });
    const store = await KyselyCheckpointStore.open(first);
    expect((await first.migrate(CHECKPOINTS_STORAGE_NAMESPACE, CHECKPOINTS_STORAGE_MIGRATIONS)).applied).toEqual([]);
    const content = Uint8Array.from([0, 255, 13, 10]);
    await store.putPreImage({
      checkpointId: "cp",
      path: "/w/a",
      toolName: "Edit",
      callId: "c1",
      pre: { kind: "file", mode: 0o755, sha256: "h", linkTarget: "", content },
      recordedAt: 1,
    });
    await first.close();
    const second = await openSqliteStorage({ dataDir });
    try {
      const [entry] = await (await KyselyCheckpointStore.open(second)).listEntries("cp");
      expect([...entry!.pre.content]).toEqual([0, 255, 13, 10]);
      expect(entry!.pre.mode).toBe(0o755);
    } finally {
      await second.close();
    }
  });
});
