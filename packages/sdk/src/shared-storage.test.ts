import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { leaseSqliteStorage } from "@agent-tools/storage";
import { TASK_STATE_TABLE } from "@agent-tools/tools-tasks/internal";
import { afterAll, describe, expect, it } from "vitest";
import { createResourceHub } from "@agent-tools/core";
import { buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";

const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-shared-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

const create = (id: string) => ({ id, name: "TaskCreate", arguments: { subject: id, description: "shared", activeForm: "Sharing" } });

describe("buildBuiltinToolRegistry: one SQLite storage per dataDir and resource hub", () => {
  it("two registries given one hub write through one connection, and closing one keeps the other working", async () => {
    const workdir = path.join(temporary, "project");
    const dataDir = path.join(temporary, "data");
    fs.mkdirSync(workdir, { recursive: true });
    const hub = createResourceHub();
    const one = await buildBuiltinToolRegistry({ workdir, dataDir, resources: hub, tasks: { run: { conversationId: "one" } } });
    const two = await buildBuiltinToolRegistry({ workdir, dataDir: `${dataDir}/`, resources: hub, tasks: { run: { conversationId: "two" } } });
    expect((await one.executeToolCall(create("a"))).isError).toBe(false);

    // TEMP triggers belong to one connection: they fire only for writes made through it.
    const probe = leaseSqliteStorage({ dataDir, resources: hub });
    const storage = await probe.get();
    await sql`CREATE TEMP TABLE seen (n integer)`.execute(storage.db);
    await sql.raw(`CREATE TEMP TRIGGER seen_insert AFTER INSERT ON main.${TASK_STATE_TABLE} BEGIN INSERT INTO seen VALUES (1); END`).execute(storage.db);
    await sql.raw(`CREATE TEMP TRIGGER seen_update AFTER UPDATE ON main.${TASK_STATE_TABLE} BEGIN INSERT INTO seen VALUES (1); END`).execute(storage.db);
    const seen = async () => Number((await sql<{ count: number }>`SELECT count(*) AS count FROM seen`.execute(storage.db)).rows[0]!.count);

    expect((await two.executeToolCall(create("b"))).isError).toBe(false);
    expect(await seen()).toBe(1);
    expect((await one.executeToolCall(create("c"))).isError).toBe(false);
    expect(await seen()).toBe(2);

    await one.close();
    expect(storage.closed).toBe(false);
    const listed = await two.executeToolCall({ id: "l", name: "TaskList", arguments: {} });
    expect(listed.isError).toBe(false);
    expect(JSON.stringify(listed.content)).toContain("b");
    expect((await two.executeToolCall(create("d"))).isError).toBe(false);
    expect(await seen()).toBe(3);

    await two.close();
    expect(storage.closed).toBe(false);
    await probe.release();
    // The hub is the host's: its storage ends when the host closes it.
    expect(storage.closed).toBe(false);
    await hub.close();
    expect(storage.closed).toBe(true);
  });

  it("without a hub, a registry has its own connection (shared with nothing else) and closes it", async () => {
    const workdir = path.join(temporary, "project-2");
    const dataDir = path.join(temporary, "data-2");
    fs.mkdirSync(workdir, { recursive: true });
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, tasks: { run: { conversationId: "own" } } });
    const other = await buildBuiltinToolRegistry({ workdir, dataDir, tasks: { run: { conversationId: "own" } } });
    expect((await registry.executeToolCall(create("x"))).isError).toBe(false);
    const probe = leaseSqliteStorage({ dataDir });
    const storage = await probe.get();
    await sql`CREATE TEMP TABLE seen (n integer)`.execute(storage.db);
    await sql.raw(`CREATE TEMP TRIGGER seen_update AFTER UPDATE ON main.${TASK_STATE_TABLE} BEGIN INSERT INTO seen VALUES (1); END`).execute(storage.db);
    // Another registry's write reaches the same file, but through its own connection.
    expect((await other.executeToolCall(create("y"))).isError).toBe(false);
    expect(JSON.stringify((await registry.executeToolCall({ id: "l", name: "TaskList", arguments: {} })).content)).toContain("y");
    expect(Number((await sql<{ count: number }>`SELECT count(*) AS count FROM seen`.execute(storage.db)).rows[0]!.count)).toBe(0);
    await registry.close();
    await other.close();
    expect(storage.closed).toBe(false);
    await probe.release();
    expect(storage.closed).toBe(true);
  });
});
