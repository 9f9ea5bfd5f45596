import { createToolRegistry } from "@agent-tools/core";
import { type Storage, openPostgresStorage, openSqliteStorage } from "@agent-tools/storage";
import { sqliteTestBackends, usePostgresTestCluster } from "@agent-tools/storage/testing";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InMemoryTaskStateStore } from "./index.js";
import { KyselyTaskStateStore } from "./index.js";
import type { TaskListDetails } from "./index.js";
import { createTaskToolBundle } from "./index.js";
import { runTaskStateStoreContract } from "./testing/task-state-store-contract.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-task-store-"));
const cluster = usePostgresTestCluster();
let postgresUrl: Promise<string> | undefined;
const storages = new Map<unknown, Storage>();
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

async function kyselyStore(open: () => Promise<Storage>): Promise<KyselyTaskStateStore> {
  const storage = await open();
  const store = await KyselyTaskStateStore.open(storage);
  storages.set(store, storage);
  return store;
}
async function disposeKyselyStore(store: unknown): Promise<void> {
  await storages.get(store)?.close();
  storages.delete(store);
}

runTaskStateStoreContract("in-memory", { open: async () => new InMemoryTaskStateStore() });

const shared = new InMemoryTaskStateStore();
runTaskStateStoreContract("in-memory (one shared instance)", { open: async () => shared, dispose: async () => undefined, sharedBackend: true });

// Once per SQLite driver of this Node, each on a directory of its own.
for (const sqlite of sqliteTestBackends(temporary)) {
  runTaskStateStoreContract(`Kysely on ${sqlite.label}`, {
    open: () => kyselyStore(() => sqlite.open({ dataDir: path.join(temporary, sqlite.driver.replace(/\W/g, "-")) })),
    dispose: disposeKyselyStore,
    sharedBackend: true,
  });
}

runTaskStateStoreContract("Kysely on PostgreSQL (real server)", {
  open: () => kyselyStore(async () => openPostgresStorage({ connectionString: await (postgresUrl ??= cluster().createDatabase("tasks")) })),
  dispose: disposeKyselyStore,
  sharedBackend: true,
});

describe.each([
  ["SQLite", () => openSqliteStorage({ dataDir: path.join(temporary, "tools") })],
  ["PostgreSQL", async () => openPostgresStorage({ connectionString: await (postgresUrl ??= cluster().createDatabase("tasks")) })],
] as const)("task tools over a Kysely store on %s", (_label, open) => {
  it("keep their list across a reopen of the database", async () => {
    const workdir = fs.mkdtempSync(path.join(temporary, "workdir-"));
    const conversationId = `reopen-${_label}-${Date.now()}`;
    const session = async () => {
      const storage = await open();
      const bundle = createTaskToolBundle({ store: await KyselyTaskStateStore.open(storage), run: { conversationId, runId: "turn-1" } });
      const registry = createToolRegistry({ workdir, dataDir: temporary, bundles: [bundle] });
      const call = async (name: string, args: object) => {
        const result = await registry.executeToolCall({ id: name, name, arguments: args });
        expect(result.isError).toBe(false);
        return result.details as TaskListDetails;
      };
      return {
        call,
        close: async () => {
          await registry.close();
          await storage.close();
        },
      };
    };
    const first = await session();
    await Promise.all(["Plan", "Build", "Ship"].map((subject) => first.call("TaskCreate", { subject, description: subject, activeForm: subject })));
    await first.call("TaskUpdate", { taskId: "2", status: "in_progress" });
    await first.close();
    const second = await session();
    const listed = await second.call("TaskList", {});
    expect(listed.revision).toBe(4);
    expect(listed.tasks.map((task) => [task.id, task.status])).toEqual([
      ["1", "pending"],
      ["2", "in_progress"],
      ["3", "pending"],
    ]);
    expect((await second.call("TaskCreate", { subject: "More", description: "More", activeForm: "More" })).taskId).toBe("4");
    await second.close();
  });
});
