import { SdkError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import { InMemoryCronStore } from "../ports/in-memory-cron-store.js";
import type { CronTaskPatch } from "../ports/cron-store.js";
import { NOW, setup } from "./__fixtures__/cron-registry.js";
import { createCronTaskManagerTool } from "./cron-task-manager-tool.js";

const PREFIX = "Cron task manager failed: ";
const BASH = { action: "create", name: "backup", cron: "0 0 3 * * *", type: "bash", script: "./backup.sh" };
const HTTP = { action: "create", name: "ping", cron: "0 */5 * * * *", type: "http", requests: [{ url: "https://example.com/hook" }] };
const PROMPT = { action: "create", name: "digest", cron: "0 0 9 * * *", type: "prompt", prompt: "Summarise the open issues." };

async function created(call: ReturnType<typeof setup>["call"], args: Record<string, unknown>): Promise<string> {
  const result = await call(args);
  expect(result.isError, result.text).toBe(false);
  return result.details.task!.id;
}

function expectError(result: { isError: boolean; text: string; details: unknown }, fragment: string) {
  expect(result.isError).toBe(true);
  expect(result.text.startsWith(PREFIX), result.text).toBe(true);
  expect(result.text).toContain(fragment);
  expect(result.details).toEqual({});
}

describe("CronTaskManager definition", () => {
  it("is offered in chat and cron with system metadata and a flat schema", () => {
    const { tool, registry } = setup();
    expect(tool.name).toBe("CronTaskManager");
    expect(tool.scopes).toEqual(["chat", "cron"]);
    expect(tool.metadata).toEqual({
      groupId: "system",
      kind: "cron",
      isReadOnly: false,
      displayCategory: "system",
      annotations: { readOnly: false, listedInPlanMode: false },
    });
    expect(Object.keys(tool.jsonSchema.properties ?? {})).toEqual([
      "action",
      "task_id",
      "name",
      "description",
      "cron",
      "type",
      "enabled",
      "remaining_executions",
      "timeout_seconds",
      "script",
      "requests",
      "prompt",
      "workdir",
      "limit",
    ]);
    expect(tool.jsonSchema.required).toEqual(["action"]);
    expect(registry.tools.map((t) => t.name)).toContain("CronTaskManager");
    const cron = setup({ scope: "cron" });
    expect(cron.registry.tools.map((t) => t.name)).toContain("CronTaskManager");
  });

  it("shows the model this schema and description", () => {
    const { tool } = setup();
    expect({ description: tool.description, jsonSchema: tool.jsonSchema }).toMatchSnapshot();
  });

  it("refuses an unknown time zone when built", () => {
    expect(() => createCronTaskManagerTool({ store: new InMemoryCronStore(), timeZone: "Mars/Olympus" })).toThrow(SdkError);
    expect(() => createCronTaskManagerTool({ store: new InMemoryCronStore(), timeZone: "Mars/Olympus" })).toThrow(
      'timeZone "Mars/Olympus" is not a known IANA time zone',
    );
  });

  it("answers a cancelled call as cancelled and changes nothing", async () => {
    const { registry, store } = setup();
    const controller = new AbortController();
    controller.abort();
    const result = await registry.executeToolCall({ id: "c1", name: "CronTaskManager", arguments: BASH }, { signal: controller.signal });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ cancelled: true });
    expect(await store.listTasks()).toHaveLength(0);
  });

  it("leaves shape and enum errors to the registry", async () => {
    const { call } = setup();
    const result = await call({ action: "run" });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("`action` must be one of");
    const extra = await call({ action: "read", schedule: "x" });
    expect(extra.text).toContain("unsupported argument(s): schedule");
  });
});

describe("create", () => {
  it("creates a bash task in the current workspace and answers the task line and the next 3 fire times", async () => {
    const { call, store, workdir } = setup();
    const result = await call(BASH);
    expect(result.isError).toBe(false);
    const id = result.details.task!.id;
    expect(id).toMatch(/^cron_/);
    expect(result.text).toBe(
      [
        `Created cron task ${id}.`,
        `task_id=${id} | name="backup" | type=bash | cron=0 0 3 * * * | enabled=true | remaining_executions=unlimited | timeout_seconds=300 | last_error=none`,
        "next_fire_times=2026-01-02T03:00:00.000Z, 2026-01-03T03:00:00.000Z, 2026-01-04T03:00:00.000Z",
      ].join("\n"),
    );
    expect(result.details).toMatchObject({
      kind: "cron",
      action: "create",
      nextFireTimes: [Date.UTC(2026, 0, 2, 3), Date.UTC(2026, 0, 3, 3), Date.UTC(2026, 0, 4, 3)],
    });
    expect(await store.getTask(id)).toMatchObject({
      type: "bash",
      script: "./backup.sh",
      workdir,
      enabled: true,
      remainingExecutions: null,
      timeoutSeconds: 300,
      timeZone: "UTC",
      createdAt: NOW,
    });
  });

  it("creates http tasks without a workdir and prompt tasks pinned to the current model", async () => {
    const { call, store, model, workdir } = setup();
    const http = await store.getTask(await created(call, { ...HTTP, enabled: false, remaining_executions: 3 }));
    expect(http).toMatchObject({
      type: "http",
      enabled: false,
      remainingExecutions: 3,
      requests: [{ id: "req-1", url: "https://example.com/hook", method: "POST" }],
    });
    expect(http!.workdir).toBeUndefined();
    const prompt = await store.getTask(await created(call, { ...PROMPT, timeout_seconds: 3600 }));
    expect(prompt).toMatchObject({ selectedModel: "model-a", reasoning: "medium", workdir, timeoutSeconds: 3600 });
    model.id = undefined;
    expectError(await call(PROMPT), "none is selected; select a model");
    expect(await store.listTasks()).toHaveLength(2);
  });

  it("says when a disabled task will not fire", async () => {
    const { call } = setup();
    const result = await call({ ...BASH, enabled: false });
    expect(result.text).toContain("(disabled: it will not fire until enabled)");
  });

  it("refuses invalid input with the prefix and every problem, storing nothing", async () => {
    const { call, store } = setup();
    expectError(await call({ action: "create" }), "name is required");
    expectError(await call({ ...BASH, cron: "0 3 * * *" }), 'cron "0 3 * * *" has 5 fields; it needs exactly six fields');
    expectError(await call({ ...BASH, cron: "0 0 0 30 2 *" }), "never fires");
    expectError(await call({ ...BASH, timeout_seconds: 601 }), "from 1 to 600");
    expectError(await call({ ...PROMPT, timeout_seconds: 3601 }), "from 1 to 3600");
    expectError(await call({ ...BASH, remaining_executions: -1 }), "remaining_executions must be a whole number >= 0");
    expectError(await call({ ...BASH, script: "" }), "script is empty");
    expectError(await call({ ...HTTP, requests: [] }), "requests is empty");
    expectError(await call({ ...HTTP, requests: [{ url: "example.com" }] }), "is not an absolute URL");
    expectError(await call({ ...HTTP, workdir: "/tmp" }), "workdir is not used by http tasks");
    expectError(await call({ ...BASH, workdir: "relative" }), "not an absolute path");
    expectError(await call({ ...BASH, prompt: "x" }), "prompt belongs to prompt tasks, not bash tasks");
    expectError(await call({ ...BASH, task_id: "cron_x" }), "create does not take task_id");
    expectError(await call({ ...BASH, limit: 5 }), "create does not take limit");
    const both = await call({ action: "create", name: "x", type: "bash", script: "ls", cron: "bad" });
    expect(both.text).toContain('cron "bad" has 1 field');
    expect(await store.listTasks()).toHaveLength(0);
  });
});

describe("read", () => {
  it("lists every task as a line, oldest first, or says there are none", async () => {
    let clock = NOW;
    const { call } = setup({ now: () => (clock += 1_000) });
    const empty = await call({ action: "read" });
    expect(empty.text).toBe("No cron tasks yet. Create one with action=create.");
    expect(empty.details).toEqual({ kind: "cron", action: "read", tasks: [] });
    const first = await created(call, BASH);
    const second = await created(call, HTTP);
    const all = await call({ action: "read", task_id: "" });
    expect(all.text.split("\n")).toEqual([
      "2 cron tasks:",
      `task_id=${first} | name="backup" | type=bash | cron=0 0 3 * * * | enabled=true | remaining_executions=unlimited | timeout_seconds=300 | last_error=none`,
      `task_id=${second} | name="ping" | type=http | cron=0 */5 * * * * | enabled=true | remaining_executions=unlimited | timeout_seconds=300 | last_error=none`,
    ]);
    expect(all.details.tasks).toHaveLength(2);
  });

  it("shows one task with its next fire times and fields; unknown ids are not found", async () => {
    const { call, workdir, store } = setup();
    const bash = await created(call, { ...BASH, description: "nightly" });
    await store.updateTask(bash, { lastError: "exit 1" }, NOW);
    const one = await call({ action: "read", task_id: bash });
    expect(one.text).toBe(
      [
        `task_id=${bash} | name="backup" | type=bash | cron=0 0 3 * * * | enabled=true | remaining_executions=unlimited | timeout_seconds=300 | last_error=exit 1`,
        "next_fire_times=2026-01-02T03:00:00.000Z, 2026-01-03T03:00:00.000Z, 2026-01-04T03:00:00.000Z",
        'description="nightly"',
        `workdir=${workdir}`,
        "time_zone=UTC",
        "script:",
        "./backup.sh",
      ].join("\n"),
    );
    const http = await created(call, { ...HTTP, requests: [{ url: "https://e.com/a", method: "put", headers: { "X-A": "1" }, body: "{}" }] });
    expect((await call({ action: "read", task_id: http })).text).toContain('requests:\nreq-1 PUT https://e.com/a headers={"X-A":"1"} body="{}"');
    const prompt = await created(call, PROMPT);
    expect((await call({ action: "read", task_id: prompt })).text).toContain("model=model-a | reasoning=medium\nprompt:\nSummarise the open issues.");
    expectError(await call({ action: "read", task_id: "cron_missing" }), "task cron_missing was not found; call CronTaskManager with action=read (no task_id)");
    expectError(await call({ action: "read", task_id: bash, enabled: false }), "read does not take enabled; remove it (use action=update to change a task).");
  });
});

describe("update", () => {
  it("changes the given fields and answers the new line and next fire times", async () => {
    const { call, store } = setup();
    const id = await created(call, BASH);
    const result = await call({ action: "update", task_id: id, cron: "0 30 12 * * *", enabled: false, remaining_executions: 2, name: "noon" });
    expect(result.isError).toBe(false);
    expect(result.text).toBe(
      [
        `Updated cron task ${id}.`,
        `task_id=${id} | name="noon" | type=bash | cron=0 30 12 * * * | enabled=false | remaining_executions=2 | timeout_seconds=300 | last_error=none`,
        "next_fire_times=2026-01-01T12:30:00.000Z, 2026-01-02T12:30:00.000Z, 2026-01-03T12:30:00.000Z (disabled: it will not fire until enabled)",
      ].join("\n"),
    );
    expect(result.details).toMatchObject({ kind: "cron", action: "update", task: { id, version: 2 } });
    expect(await store.getTask(id)).toMatchObject({ name: "noon", remainingExecutions: 2, enabled: false, script: "./backup.sh" });
    const unlimited = await call({ action: "update", task_id: id, remaining_executions: null });
    expect(unlimited.text).toContain("remaining_executions=unlimited");
  });

  it("changes the type when the new type's field comes with it, pinning the model for prompt tasks", async () => {
    const { call, store, model } = setup();
    const id = await created(call, HTTP);
    expectError(await call({ action: "update", task_id: id, type: "bash" }), "a bash task needs script");
    model.id = "model-b";
    const result = await call({ action: "update", task_id: id, type: "prompt", prompt: "hello" });
    expect(result.text).toContain("type=prompt");
    expect(await store.getTask(id)).toMatchObject({ type: "prompt", prompt: "hello", selectedModel: "model-b", reasoning: "medium" });
    expect((await store.getTask(id))!.workdir).toBeDefined();
    // Back to http: the read answer shows no workdir for an http task.
    await call({ action: "update", task_id: id, type: "http", requests: [{ url: "https://e.com/x", method: "GET" }] });
    const read = await call({ action: "read", task_id: id });
    expect(read.text).toContain("requests:\nreq-1 GET https://e.com/x");
    expect(read.text).not.toContain("workdir=");
  });

  it("refuses a missing task_id, no fields, unknown tasks and invalid fields", async () => {
    const { call, store } = setup();
    const id = await created(call, BASH);
    expectError(await call({ action: "update", enabled: false }), "update needs task_id");
    expectError(await call({ action: "update", task_id: id }), "update needs at least one field to change");
    expectError(await call({ action: "update", task_id: "cron_nope", enabled: false }), "task cron_nope was not found");
    expectError(await call({ action: "update", task_id: id, timeout_seconds: 0 }), "from 1 to 600");
    expectError(await call({ action: "update", task_id: id, requests: [{ url: "https://e.com" }] }), "requests belongs to http tasks");
    expectError(await call({ action: "update", task_id: id, limit: 3 }), "update does not take limit");
    expect((await store.getTask(id))!.version).toBe(1);
  });

  it("refuses when the task changed between reading and writing it", async () => {
    class RacingStore extends InMemoryCronStore {
      override async updateTask(id: string, patch: CronTaskPatch, now: number, options?: { readonly expectedVersion?: number }) {
        await super.updateTask(id, { description: "someone else" }, now);
        return super.updateTask(id, patch, now, options);
      }
    }
    const store = new RacingStore();
    const { call } = setup({ store });
    const id = await created(call, BASH);
    expectError(await call({ action: "update", task_id: id, enabled: false }), `task ${id} was changed by someone else while updating; read it`);
    expect((await store.getTask(id))!.enabled).toBe(true);
  });
});

describe("delete", () => {
  it("deletes a task and its runs; then it is not found", async () => {
    const { call, store } = setup();
    const id = await created(call, BASH);
    await store.claimOccurrence({ taskId: id, scheduledAt: NOW, owner: "s1", now: NOW, leaseMs: 1000 });
    const result = await call({ action: "delete", task_id: id });
    expect(result.text).toBe(`Deleted cron task ${id} ("backup") and its run logs.`);
    expect(result.details).toMatchObject({ kind: "cron", action: "delete", task: { id } });
    expect(await store.getTask(id)).toBeUndefined();
    expect(await store.listRuns(id)).toEqual([]);
    expectError(await call({ action: "delete", task_id: id }), `task ${id} was not found`);
    expectError(await call({ action: "delete" }), "delete needs task_id");
    expectError(await call({ action: "delete", task_id: "x", name: "y" }), "delete does not take name");
  });
});

describe("list_logs", () => {
  async function addRun(store: InMemoryCronStore, taskId: string, scheduledAt: number, success: boolean, output: string) {
    const run = await store.claimOccurrence({ taskId, scheduledAt, owner: "s1", now: scheduledAt, leaseMs: 60_000 });
    expect(run).toBeDefined();
    expect(await store.finishRun(run!.id, "s1", { success, finishedAt: scheduledAt + 250, exitCode: success ? 0 : 1, output })).toBe(true);
  }

  it("lists runs newest first with status, start, duration and the cut output", async () => {
    const store = new InMemoryCronStore();
    const { call } = setup({ store });
    const id = await created(call, BASH);
    expect((await call({ action: "list_logs", task_id: id })).text).toBe(`No runs yet for task ${id}.`);
    await addRun(store, id, Date.UTC(2026, 0, 2, 3), true, "done");
    await addRun(store, id, Date.UTC(2026, 0, 3, 3), false, "x".repeat(700));
    const result = await call({ action: "list_logs", task_id: id });
    expect(result.text).toBe(
      [
        `Runs of task ${id} (2, newest first):`,
        "1. [failed] started_at=2026-01-03T03:00:00.000Z duration_ms=250",
        `${"x".repeat(600)}...[truncated]`,
        "2. [success] started_at=2026-01-02T03:00:00.000Z duration_ms=250",
        "done",
      ].join("\n"),
    );
    expect(result.details.runs).toHaveLength(2);
    const one = await call({ action: "list_logs", task_id: id, limit: 1 });
    expect(one.details.runs).toHaveLength(1);
    expect(one.text).toContain("1. [failed]");
    expect(one.text).not.toContain("[success]");
  });

  it("defaults to 100 runs and checks the limit range", async () => {
    const store = new InMemoryCronStore();
    const { call } = setup({ store });
    const id = await created(call, { ...BASH, cron: "0 * * * * *" });
    for (let index = 0; index < 105; index += 1) await addRun(store, id, NOW + index * 60_000, true, "");
    expect((await call({ action: "list_logs", task_id: id })).details.runs).toHaveLength(100);
    expect((await call({ action: "list_logs", task_id: id, limit: 500 })).details.runs).toHaveLength(105);
    for (const limit of [0, 501, 1.5])
      expectError(await call({ action: "list_logs", task_id: id, limit }), `limit ${limit} is out of range; give a whole number from 1 to 500`);
    expectError(await call({ action: "list_logs" }), "list_logs needs task_id");
    expectError(await call({ action: "list_logs", task_id: "cron_none" }), "task cron_none was not found");
    expectError(await call({ action: "list_logs", task_id: id, enabled: true }), "list_logs does not take enabled");
  });
});

describe("the store", () => {
  it("is opened lazily once, and again after a failed open", async () => {
    let opens = 0;
    const store = new InMemoryCronStore();
    const { call } = setup({
      store: async () => {
        opens += 1;
        if (opens === 1) throw new Error("database is locked");
        return store;
      },
    });
    expectError(await call({ action: "read" }), "the cron task store could not be opened (database is locked); try again later");
    expect((await call({ action: "read" })).isError).toBe(false);
    await call(BASH);
    expect(opens).toBe(2);
    expect(await store.listTasks()).toHaveLength(1);
  });

  it("turns store failures into prefixed errors", async () => {
    class BrokenStore extends InMemoryCronStore {
      override async listTasks(): Promise<never> {
        throw new Error("disk I/O error");
      }
    }
    const { call } = setup({ store: new BrokenStore() });
    expectError(await call({ action: "read" }), "the cron task store failed (disk I/O error); try again");
  });
});
