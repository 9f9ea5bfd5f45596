import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openSqliteStorage } from "@agent-tools/storage";
import { createStoreTestBackends } from "@agent-tools/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemorySubagentStore } from "../ports/in-memory-subagent-store.js";
import { runSubagentStoreContract } from "../testing/subagent-store-contract.js";
import { KyselySubagentStore } from "./kysely-subagent-store.js";
import { SUBAGENT_STORAGE_NAMESPACE } from "./subagent-migrations.js";

const backends = createStoreTestBackends("agent-tools-subagent-store-");
const temporary = backends.temporary;

beforeAll(() => backends.start(), 120_000);
afterAll(() => backends.stop(), 60_000);

runSubagentStoreContract("in-memory", { open: async () => new InMemorySubagentStore() });

const shared = new InMemorySubagentStore();
runSubagentStoreContract("in-memory (one shared instance)", { open: async () => shared, dispose: async () => undefined, sharedBackend: true });

// One SQLite storage per file and process: every store shares its connection. Once per driver of this Node.
for (const sqlite of backends.sqlite) {
  runSubagentStoreContract(`Kysely on ${sqlite.label}`, {
    open: async () => KyselySubagentStore.open(await sqlite.sharedSqlite()),
    sharedBackend: true,
  });
}

// A pool per store over one database: the racing appends really run at once on the server.
runSubagentStoreContract("Kysely on PostgreSQL (real server)", {
  ...backends.postgresStores("subagents", (storage) => KyselySubagentStore.open(storage)),
  sharedBackend: true,
});

describe("KyselySubagentStore", () => {
  it("migrates once in the subagents namespace, and close() leaves the storage open", async () => {
    const storage = await openSqliteStorage({ filename: ":memory:" });
    try {
      const store = await KyselySubagentStore.open(storage);
      expect((await storage.migrate(SUBAGENT_STORAGE_NAMESPACE, [])).applied).toEqual([]);
      const again = await KyselySubagentStore.open(storage);
      await store.close();
      expect(storage.closed).toBe(false);
      expect((await again.appendMessage("c", { senderId: "parent", recipientId: "*", channel: "shared", body: "still open" })).seq).toBe(1);
    } finally {
      await storage.close();
    }
  });
});

describe("Kysely on SQLite: two processes appending to one file", () => {
  it("hand out seqs 1..N with no gap or duplicate", async () => {
    const filename = path.join(temporary, "race.sqlite");
    const perWriter = 50;
    const conversation = "race-conversation";
    const child = path.join(path.dirname(fileURLToPath(import.meta.url)), "__fixtures__", "subagent-append-race-child.ts");
    const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
    // Migrate once up front, so the race is about the appends.
    const setup = await openSqliteStorage({ filename });
    await KyselySubagentStore.open(setup);
    await setup.close();
    const writers = [0, 1].map((writer) => {
      const child_ = spawn(
        process.execPath,
        ["--import", "tsx", "--conditions=@agent-tools/source", child, filename, conversation, String(perWriter), String(writer)],
        {
          cwd: repositoryRoot,
          stdio: ["pipe", "pipe", "inherit"],
        },
      );
      let output = "";
      child_.stdout.setEncoding("utf8");
      const ready = new Promise<void>((resolve) => {
        child_.stdout.on("data", (chunk: string) => {
          output += chunk;
          if (output.includes("ready\n")) resolve();
        });
      });
      const done = new Promise<number[]>((resolve, reject) => {
        child_.on("exit", (code) =>
          code === 0
            ? resolve(JSON.parse(output.split("\n").filter(Boolean).at(-1) ?? "[]") as number[])
            : reject(new Error(`writer ${writer} exited ${code}`)),
        );
      });
      return { child_, ready, done };
    });
    await Promise.all(writers.map((writer) => writer.ready));
    for (const writer of writers) writer.child_.stdin.end("go\n");
    const [first, second] = await Promise.all(writers.map((writer) => writer.done));
    const all = [...first!, ...second!].sort((left, right) => left - right);
    expect(all).toEqual(Array.from({ length: 2 * perWriter }, (_, index) => index + 1));

    const storage = await openSqliteStorage({ filename });
    try {
      const store = await KyselySubagentStore.open(storage);
      const listed = await store.listMessages(conversation, { limit: 1000 });
      expect(listed.map((message) => message.seq)).toEqual(all);
      for (const message of listed) expect(message.senderId).toBe(first!.includes(message.seq) ? "writer-0" : "writer-1");
      expect(listed.filter((message) => message.senderId === "writer-0")).toHaveLength(perWriter);
    } finally {
      await storage.close();
    }
  }, 60_000);
});
