import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { SdkError, type ToolResult } from "@agent-tools/core";
import type { TaskListDetails } from "@agent-tools/tools-tasks";
import { afterAll, describe, expect, it } from "vitest";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "./build-builtin-tool-registry.js";
import type { BuiltinToolRegistry } from "./builtin-tool-types.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const repositoryRoot = path.resolve(here, "../../..");
const fixture = path.join(here, "__fixtures__", "task-tools-process.mjs");
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-sdk-task-lists-"));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

/** A fresh project directory under the test's temporary directory. */
function project(name: string): string {
  const workdir = path.join(temporary, name);
  fs.mkdirSync(workdir, { recursive: true });
  return workdir;
}

const createArguments = (subject: string) => ({ subject, description: `${subject} in full`, activeForm: `${subject} now` });

async function createTask(registry: BuiltinToolRegistry, subject: string): Promise<void> {
  const result = await registry.executeToolCall({ id: `create-${subject}`, name: "TaskCreate", arguments: createArguments(subject) });
  expect(result.isError).toBe(false);
}

async function listedSubjects(registry: BuiltinToolRegistry): Promise<string[]> {
  const result = (await registry.executeToolCall({ id: "list", name: "TaskList", arguments: {} })) as ToolResult<TaskListDetails>;
  expect(result.isError).toBe(false);
  return result.details.tasks.map((task) => task.subject);
}

async function build(options: BuiltinToolRegistryOptions, opened: BuiltinToolRegistry[]): Promise<BuiltinToolRegistry> {
  const registry = await buildBuiltinToolRegistry(options);
  opened.push(registry);
  return registry;
}

async function closeAll(opened: BuiltinToolRegistry[]): Promise<void> {
  await Promise.all(opened.splice(0).map((registry) => registry.close()));
}

/** Runs the task fixture as a separate Node process. */
async function inAnotherProcess(
  workdir: string,
  dataDir: string,
  calls: Array<{ name: string; arguments: unknown }>,
  extra: Record<string, unknown> = {},
): Promise<{ pid: number; results: ToolResult<TaskListDetails>[] }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--conditions=@agent-tools/source", fixture, workdir, dataDir, JSON.stringify(calls), JSON.stringify(extra)],
    { cwd: repositoryRoot, timeout: 90_000 },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

describe("buildBuiltinToolRegistry: whose task list a call sees", () => {
  it("keeps one list per workdir: a task created in project A is not listed in project B on the same dataDir", async () => {
    const dataDir = path.join(temporary, "workdirs-data");
    const opened: BuiltinToolRegistry[] = [];
    try {
      const projectA = await build({ workdir: project("workdirs-a"), dataDir }, opened);
      const projectB = await build({ workdir: project("workdirs-b"), dataDir }, opened);
      await createTask(projectA, "Fix the login form");
      expect(await listedSubjects(projectB)).toEqual([]);
      await createTask(projectB, "Write the changelog");
      expect(await listedSubjects(projectA)).toEqual(["Fix the login form"]);
      expect(await listedSubjects(projectB)).toEqual(["Write the changelog"]);
    } finally {
      await closeAll(opened);
    }
  });

  it("gives another process on the same dataDir and workdir, without a conversation id, a list of its own", async () => {
    const workdir = project("process-project");
    const dataDir = path.join(temporary, "process-data");
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir });
    try {
      await createTask(registry, "Plan");
      const child = await inAnotherProcess(workdir, dataDir, [
        { name: "TaskList", arguments: {} },
        { name: "TaskCreate", arguments: createArguments("Child work") },
      ]);
      expect(child.pid).not.toBe(process.pid);
      const [listed, created] = child.results;
      expect(listed!.isError).toBe(false);
      expect(listed!.details.tasks).toEqual([]);
      expect(created!.isError).toBe(false);
      expect(created!.details).toMatchObject({ action: "created", taskId: "1" });
      // The child's list did not replace this one.
      expect(await listedSubjects(registry)).toEqual(["Plan"]);
    } finally {
      await registry.close();
    }
  });

  it("keeps one list per conversation id on the same workdir, and finds it again under that id", async () => {
    const workdir = project("conversations-project");
    const dataDir = path.join(temporary, "conversations-data");
    const opened: BuiltinToolRegistry[] = [];
    try {
      const first = await build({ workdir, dataDir, conversationId: "chat-1" }, opened);
      const second = await build({ workdir, dataDir, conversationId: "chat-2" }, opened);
      await createTask(first, "Chat one's task");
      expect(await listedSubjects(second)).toEqual([]);
      // The same conversation later (a restarted host) sees its list again.
      const again = await build({ workdir, dataDir, conversationId: "chat-1" }, opened);
      expect(await listedSubjects(again)).toEqual(["Chat one's task"]);
      // The same conversation id in another project is another list.
      const elsewhere = await build({ workdir: project("conversations-other"), dataDir, conversationId: "chat-1" }, opened);
      expect(await listedSubjects(elsewhere)).toEqual([]);
    } finally {
      await closeAll(opened);
    }
  });

  it("shares one list on purpose: the same explicit tasks.run on two registries (other workdirs, other conversations, another process)", async () => {
    const dataDir = path.join(temporary, "shared-data");
    const shared = { run: { conversationId: "release-plan" } };
    const opened: BuiltinToolRegistry[] = [];
    try {
      const one = await build({ workdir: project("shared-a"), dataDir, conversationId: "a", tasks: shared }, opened);
      const two = await build({ workdir: project("shared-b"), dataDir, conversationId: "b", tasks: shared }, opened);
      await createTask(one, "Tag the release");
      expect(await listedSubjects(two)).toEqual(["Tag the release"]);
      await closeAll(opened);
      const child = await inAnotherProcess(project("shared-c"), dataDir, [{ name: "TaskList", arguments: {} }], { tasks: shared });
      expect(child.results[0]!.details.tasks.map((task) => task.subject)).toEqual(["Tag the release"]);
    } finally {
      await closeAll(opened);
    }
  });

  it("refuses a misspelt or malformed task option or conversation id, naming it", async () => {
    const workdir = project("invalid-project");
    const dataDir = path.join(temporary, "invalid-data");
    const attempts: Array<[unknown, RegExp]> = [
      [{ tasks: { runs: { conversationId: "x" } } }, /tasks\.runs.*did you mean tasks\.run\?/],
      [{ tasks: { run: { conversationID: "x" } } }, /tasks\.run\.conversationID.*did you mean tasks\.run\.conversationId\?/],
      [{ tasks: { run: { conversationId: "" } } }, /tasks\.run\.conversationId/],
      [{ tasks: { run: { runId: 7 } } }, /tasks\.run\.runId/],
      [{ tasks: { run: "shared" } }, /tasks\.run must be/],
      [{ tasks: "shared" }, /tasks must be/],
      [{ tasks: { store: {} } }, /tasks\.store/],
      [{ conversationId: "" }, /conversationId/],
      [{ conversationId: 42 }, /conversationId/],
    ];
    for (const [extra, message] of attempts) {
      const attempt = buildBuiltinToolRegistry({ workdir, dataDir, ...(extra as object) });
      await expect(attempt).rejects.toBeInstanceOf(SdkError);
      await expect(attempt).rejects.toThrow(message);
    }
    // A host's run function is checked on each call: a bad answer is refused, never filed under a shared key.
    const registry = await buildBuiltinToolRegistry({ workdir, dataDir, tasks: { run: () => ({ conversationId: "", runId: "turn-1" }) } });
    try {
      const refused = await registry.executeToolCall({ id: "bad-run", name: "TaskCreate", arguments: createArguments("Lost") });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain("tasks.run");
    } finally {
      await registry.close();
    }
  });
});
