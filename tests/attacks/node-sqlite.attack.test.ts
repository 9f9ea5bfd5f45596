/**
 * Attacks on the stores of the built-in registry through `node:sqlite`
 * (Node 22.16+ and 24; better-sqlite3 on Node 20). A model calls the tools
 * of a host on Node 24 (a child process: this file runs on Node 20) with
 * hostile values and changes the data directory with its own Bash between
 * calls; the stores must answer as they do on Node 20, refuse bad values
 * with a clear tool error, and stay readable (TaskList, MemoryManager
 * list/search, CronTaskManager read, the cron scheduler).
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { openSqliteStorage } from "@agent-tools/storage";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../..");
const node24 = path.join(repositoryRoot, "compat/node24/node_modules/node/bin/node");
const node20 = process.execPath;
const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "attack-node-sqlite-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

type Step = { name: string; arguments: Record<string, unknown> } | { shell: string } | { scheduler: { until: string; maxMs: number } };
interface HostRun {
  node: string;
  results: Array<{ isError: boolean; text: string }>;
}

/** A fresh workspace and data directory. */
function layout() {
  const base = fs.mkdtempSync(path.join(temporary, "case-"));
  const workdir = path.join(base, "project");
  fs.mkdirSync(workdir);
  return { workdir, dataDir: path.join(base, "data") };
}

/** Runs `steps` in a host process on `node` (node-sqlite-host.mjs) on the layout's folders. */
async function host(node: string, where: { workdir: string; dataDir: string }, steps: Step[]): Promise<HostRun> {
  const stepsFile = path.join(path.dirname(where.workdir), `steps-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(stepsFile, JSON.stringify(steps));
  const { stdout } = await promisify(execFile)(
    node,
    ["--import", "tsx", "--conditions=@agent-tools/source", path.join(here, "node-sqlite-host.mjs"), where.workdir, where.dataDir, stepsFile],
    { cwd: repositoryRoot, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  const run = JSON.parse(stdout.trim().split("\n").at(-1)!) as HostRun;
  expect(run.node).toMatch(node === node24 ? /^v24\./ : /^v20\./);
  return run;
}

/** Sets every cron task's remaining_executions to `value` from this process (the model's Bash with a sqlite3 of its own). */
async function storeRemainingExecutions(dataDir: string, value: bigint): Promise<void> {
  const storage = await openSqliteStorage({ dataDir, driver: "better-sqlite3" });
  try {
    await storage.db.updateTable("agent_tools_cron_tasks").set({ remaining_executions: value }).execute();
  } finally {
    await storage.close();
  }
}

const TWO_TO_60 = "1152921504606846976";
const cronCreate = (extra: Record<string, unknown>) => ({
  name: "CronTaskManager",
  arguments: { action: "create", name: "tick", cron: "* * * * * *", type: "bash", script: "echo run >> ticks.txt", ...extra },
});
const taskIdOf = (text: string) => /task_id=(\S+)/.exec(text)?.[1];

describe("attack: node:sqlite stores on Node 24 against hostile values", () => {
  it("refuses remaining_executions past 2^53 at create and update, on both drivers", async () => {
    for (const node of [node24, node20]) {
      const where = layout();
      const run = await host(node, where, [
        cronCreate({ remaining_executions: Number(TWO_TO_60) }),
        cronCreate({ remaining_executions: 3 }),
        { name: "CronTaskManager", arguments: { action: "read" } },
      ]);
      const [huge, small, read] = run.results;
      expect(huge!.isError, huge!.text).toBe(true);
      expect(huge!.text).toContain("remaining_executions");
      expect(huge!.text).toContain(String(Number.MAX_SAFE_INTEGER));
      expect(small!.isError, small!.text).toBe(false);
      const id = taskIdOf(small!.text)!;
      const updated = await host(node, where, [{ name: "CronTaskManager", arguments: { action: "update", task_id: id, remaining_executions: 2 ** 53 } }]);
      expect(updated.results[0]!.isError).toBe(true);
      expect(updated.results[0]!.text).toContain(String(Number.MAX_SAFE_INTEGER));
      expect(read!.isError, read!.text).toBe(false);
      expect(read!.text).toContain("1 cron task");
    }
  }, 240_000);

  it("keeps cron read and the scheduler working when the model's Bash stored 2^60 in a task row (one row blocked every task)", async () => {
    const where = layout();
    const created = await host(node24, where, [cronCreate({ remaining_executions: 3 })]);
    expect(created.results[0]!.isError, created.results[0]!.text).toBe(false);
    const id = taskIdOf(created.results[0]!.text)!;
    await storeRemainingExecutions(where.dataDir, BigInt(TWO_TO_60));
    const after = await host(node24, where, [
      { name: "CronTaskManager", arguments: { action: "read" } },
      { name: "CronTaskManager", arguments: { action: "read", task_id: id } },
      { scheduler: { until: "ticks.txt", maxMs: 60_000 } },
    ]);
    const [list, one, scheduler] = after.results;
    expect(list!.isError, list!.text).toBe(false);
    expect(list!.text).toContain(id);
    expect(one!.isError, one!.text).toBe(false);
    const events = JSON.parse(scheduler!.text) as Array<{ type: string; message?: string }>;
    expect(events.filter((event) => event.type === "error")).toEqual([]);
    expect(fs.existsSync(path.join(where.workdir, "ticks.txt"))).toBe(true);
  }, 240_000);

  it("keeps MemoryManager list and search working after the model's Bash wrote created_at: 2^60 into a memory file", async () => {
    const where = layout();
    const write = { action: "write", scope: "project", type: "user", description: "note" };
    const first = await host(node24, where, [
      { name: "MemoryManager", arguments: { ...write, slug: "victim", body: "hello victim" } },
      { name: "MemoryManager", arguments: { ...write, slug: "bystander", body: "hello bystander" } },
    ]);
    expect(first.results.map((result) => result.isError)).toEqual([false, false]);
    const [projectFolder] = fs.readdirSync(path.join(where.dataDir, "memory", "projects"));
    const file = path.join(where.dataDir, "memory", "projects", projectFolder!, "victim.md");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^created_at: .*$/m, `created_at: ${TWO_TO_60}`));
    for (const node of [node24, node20]) {
      const after = await host(node, where, [
        { name: "MemoryManager", arguments: { action: "list" } },
        { name: "MemoryManager", arguments: { action: "search", query: "hello" } },
        { name: "MemoryManager", arguments: { action: "read", scope: "project", slug: "bystander" } },
      ]);
      for (const result of after.results) expect(result.isError, `${after.node}: ${result.text}`).toBe(false);
      expect(after.results[0]!.text).toContain("project/victim");
      expect(after.results[1]!.text).toContain("project/bystander");
    }
  }, 240_000);

  it("stores a lone UTF-16 surrogate the same way on both drivers (better-sqlite3 stored three U+FFFD, node:sqlite one)", async () => {
    const hostile = "x\ud800y\udc00z";
    const read = async (node: string) => {
      const where = layout();
      const run = await host(node, where, [
        { name: "CronTaskManager", arguments: { action: "create", name: hostile, cron: "0 0 * * * *", type: "prompt", prompt: hostile } },
        { name: "MemoryManager", arguments: { action: "write", scope: "global", slug: "lone", type: "user", description: hostile, body: "body" } },
        { name: "CronTaskManager", arguments: { action: "read" } },
        { name: "MemoryManager", arguments: { action: "list" } },
      ]);
      for (const result of run.results) expect(result.isError, result.text).toBe(false);
      return { cron: /name="([^"]*)"/.exec(run.results[2]!.text)?.[1], memory: /global\/lone \(user\): (.*)/.exec(run.results[3]!.text)?.[1] };
    };
    const [on24, on20] = [await read(node24), await read(node20)];
    expect(on24).toEqual({ cron: "x\ufffdy\ufffdz", memory: "x\ufffdy\ufffdz" });
    expect(on20).toEqual(on24);
  }, 240_000);

  it("loses no reported success when a Node 24 host (node:sqlite) and a Node 20 host (better-sqlite3) write tasks, memories and cron tasks to one dataDir at once", async () => {
    const where = layout();
    const steps = (tag: string): Step[] =>
      Array.from({ length: 12 }, (_, index) => [
        { name: "TaskCreate", arguments: { subject: `t-${tag}-${index}`, description: "d", activeForm: "Doing" } },
        { name: "MemoryManager", arguments: { action: "write", scope: "global", slug: `note-${tag}-${index}`, type: "user", description: "d", body: "b" } },
        { name: "CronTaskManager", arguments: { action: "create", name: `c-${tag}-${index}`, cron: "0 0 * * * *", type: "bash", script: "true" } },
      ]).flat();
    const runs = await Promise.all([host(node24, where, steps("a")), host(node20, where, steps("b"))]);
    const stepsOf = [steps("a"), steps("b")];
    const listed = await host(node24, where, [
      { name: "TaskList", arguments: {} },
      { name: "MemoryManager", arguments: { action: "list", limit: 32 } },
      { name: "CronTaskManager", arguments: { action: "read" } },
    ]);
    const text = listed.results.map((result) => result.text).join("\n");
    runs.forEach((run, which) =>
      run.results.forEach((result, index) => {
        const step = stepsOf[which]![index] as { arguments: Record<string, unknown> };
        const name = String(step.arguments.subject ?? step.arguments.slug ?? step.arguments.name);
        // A busy store may refuse with "retry"; what it reported as done must be there.
        if (result.isError) expect(result.text).toMatch(/retry/i);
        else expect(text).toContain(name);
      }),
    );
  }, 240_000);

  it("answers busy-retry (not 'retrying will not help') when the model's Bash holds the write lock through the stores' setup, and works once it lets go", async () => {
    const where = layout();
    fs.mkdirSync(where.dataDir);
    const marker = (name: string) => path.join(where.dataDir, name);
    // The model's Bash: a node:sqlite script holding an exclusive transaction on the fresh file until `release` exists.
    const locker = execFile(node24, [
      "-e",
      `const fs = require("node:fs");
       const db = new (require("node:sqlite").DatabaseSync)(${JSON.stringify(marker("agent-tools.sqlite"))});
       db.exec("pragma journal_mode = wal; begin exclusive; create table held (x)");
       fs.writeFileSync(${JSON.stringify(marker("locked"))}, "");
       const poll = setInterval(() => {
         if (!fs.existsSync(${JSON.stringify(marker("release"))})) return;
         clearInterval(poll); db.exec("rollback"); db.close(); fs.rmSync(${JSON.stringify(marker("locked"))});
       }, 50);`,
    ]);
    try {
      while (!fs.existsSync(marker("locked"))) await new Promise((resolve) => setTimeout(resolve, 50));
      const run = await host(node24, where, [
        { name: "TaskCreate", arguments: { subject: "while locked", description: "d", activeForm: "Doing" } },
        { shell: `touch "${marker("release")}"; while [ -e "${marker("locked")}" ]; do sleep 0.1; done` },
        { name: "TaskCreate", arguments: { subject: "after", description: "d", activeForm: "Doing" } },
      ]);
      const [locked, , after] = run.results;
      expect(locked!.isError).toBe(true);
      expect(locked!.text).toMatch(/busy/i);
      expect(locked!.text).toMatch(/retry later/i);
      expect(locked!.text).not.toMatch(/retrying will not help/i);
      expect(after!.isError, after!.text).toBe(false);
    } finally {
      fs.writeFileSync(marker("release"), "");
      locker.kill();
    }
  }, 240_000);

  it("answers at once with a clear error when the model's Bash replaced the SQLite file by a FIFO, a folder, /dev/zero or garbage", async () => {
    const cases: Record<string, (file: string) => void> = {
      fifo: (file) => execFileSync("mkfifo", [file]),
      folder: (file) => fs.mkdirSync(file),
      "link to /dev/zero": (file) => fs.symlinkSync("/dev/zero", file),
      garbage: (file) => fs.writeFileSync(file, Buffer.alloc(8192, 0x5a)),
    };
    for (const [name, plant] of Object.entries(cases)) {
      const where = layout();
      fs.mkdirSync(where.dataDir);
      plant(path.join(where.dataDir, "agent-tools.sqlite"));
      const run = await host(node24, where, [
        { name: "TaskCreate", arguments: { subject: "s", description: "d", activeForm: "Doing" } },
        { name: "MemoryManager", arguments: { action: "list" } },
        { name: "CronTaskManager", arguments: { action: "read" } },
        { name: "Read", arguments: { file_path: path.join(where.workdir, "missing.txt") } },
      ]);
      const [task, memory, cron] = run.results;
      for (const result of [task!, memory!, cron!]) {
        expect(result.isError, `${name}: ${result.text}`).toBe(true);
        expect(result.text, name).toContain("agent-tools.sqlite");
      }
      expect(run.results).toHaveLength(4);
    }
  }, 240_000);

  it("restores process.emitWarning when loading node:sqlite throws, and passes the host's warnings during the load", async () => {
    const processWithLoader = process as unknown as { getBuiltinModule?: (id: string) => unknown };
    const original = processWithLoader.getBuiltinModule;
    const emitWarning = process.emitWarning;
    const seen: string[] = [];
    const listener = (warning: Error) => seen.push(warning.message);
    process.on("warning", listener);
    try {
      processWithLoader.getBuiltinModule = (id: string) => {
        if (id !== "node:sqlite") return original?.call(process, id);
        process.emitWarning("the host's own warning", "ExperimentalWarning");
        throw new Error("no node:sqlite here");
      };
      const storage = await openSqliteStorage({ filename: ":memory:" });
      await storage.close();
      expect(process.emitWarning).toBe(emitWarning);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).toContain("the host's own warning");
    } finally {
      processWithLoader.getBuiltinModule = original;
      process.off("warning", listener);
    }
  });
});
