import { ToolError } from "@agent-tools/core";
import { describe, expect, it } from "vitest";
import type { CronTaskPolicy } from "../domain/cron-task-policy.js";
import type { CronTask } from "../domain/cron-types.js";
import { type CronStoreContractTarget, T0, bashTask, claim, httpTask, promptTask, withStore } from "./cron-store-contract-fixtures.js";

/** Tasks: create, read, list, update (optimistic), delete (with runs), fingerprint. */
export function describeCronTaskContract(target: CronStoreContractTarget): void {
  describe("tasks", () => {
    it("creates tasks of every type with an assigned id, version 1 and times, and reads every field back", async () => {
      await withStore(target, async (store) => {
        for (const input of [bashTask(), httpTask(), promptTask()]) {
          const created = await store.createTask(input, T0);
          expect(created.id).toMatch(/^cron_[0-9a-z]{12}$/);
          expect(created).toEqual({ ...input, id: created.id, createdAt: T0, updatedAt: T0, version: 1 });
          expect(await store.getTask(created.id)).toEqual(created);
        }
        const minimal = await store.createTask(
          { name: "m", description: "", cron: "* * * * * *", enabled: false, remainingExecutions: 0, timeoutSeconds: 1, type: "bash" },
          T0,
        );
        expect(await store.getTask(minimal.id)).toEqual({
          name: "m",
          description: "",
          cron: "* * * * * *",
          enabled: false,
          remainingExecutions: 0,
          timeoutSeconds: 1,
          type: "bash",
          id: minimal.id,
          createdAt: T0,
          updatedAt: T0,
          version: 1,
        });
        expect(await store.getTask("cron_missing00000")).toBeUndefined();
      });
    });

    it("keeps a task's recorded policy: read and listed as stored, replaced by an update, absent when none was given", async () => {
      await withStore(target, async (store) => {
        const policy: CronTaskPolicy = {
          workspace: "/srv/project",
          roots: [{ alias: "shared", path: "/srv/shared", access: "write" }],
          sandbox: { enabled: true, allowNetwork: false, hiddenPaths: ["/home/ada/.ssh"] },
          allowedPrivateNetworks: ["10.20.0.0/16"],
        };
        const task = await store.createTask(bashTask({ policy }), T0);
        expect((await store.getTask(task.id))?.policy).toEqual(policy);
        expect((await store.listTasks()).find((listed) => listed.id === task.id)?.policy).toEqual(policy);
        const narrower: CronTaskPolicy = { workspace: "/srv/project/sub", roots: [], allowedPrivateNetworks: [] };
        expect((await store.updateTask(task.id, { policy: narrower }, T0 + 1))?.policy).toEqual(narrower);
        expect((await store.getTask(task.id))?.policy).toEqual(narrower);
        expect((await store.getTask((await store.createTask(bashTask(), T0)).id))?.policy).toBeUndefined();
      });
    });

    it("keeps a given id and refuses a second task with it (conflict), leaving the first unchanged", async () => {
      await withStore(target, async (store) => {
        const first = await store.createTask(bashTask({ id: "cron_given000001" }), T0);
        expect(first.id).toBe("cron_given000001");
        const error = await store.createTask(httpTask({ id: "cron_given000001" }), T0 + 5).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(ToolError);
        expect((error as ToolError).code).toBe("conflict");
        expect((error as ToolError).message).toContain("cron_given000001");
        expect(await store.getTask("cron_given000001")).toEqual(first);
        expect(await store.listTasks()).toHaveLength(1);
      });
    });

    it("hands out different ids", async () => {
      await withStore(target, async (store) => {
        const ids = new Set<string>();
        for (let index = 0; index < 30; index += 1) ids.add((await store.createTask(bashTask(), T0)).id);
        expect(ids.size).toBe(30);
      });
    });

    it("lists oldest first and filters enabled ones", async () => {
      await withStore(target, async (store) => {
        const b = await store.createTask(bashTask({ name: "b" }), T0 + 2);
        const a = await store.createTask(bashTask({ name: "a", enabled: false }), T0 + 1);
        const c = await store.createTask(httpTask({ name: "c" }), T0 + 3);
        expect((await store.listTasks()).map((task) => task.id)).toEqual([a.id, b.id, c.id]);
        expect((await store.listTasks({ enabledOnly: true })).map((task) => task.id)).toEqual([b.id, c.id]);
        expect(await store.listTasks({ enabledOnly: false })).toHaveLength(3);
        expect((await store.listTasks())[0]).toEqual(a);
      });
    });

    it("updates the given fields only, bumps version and updatedAt, keeps createdAt, sets and clears lastError", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask({ remainingExecutions: 4 }), T0);
        const updated = await store.updateTask(
          task.id,
          { name: "renamed", enabled: false, remainingExecutions: null, script: undefined, lastError: "boom" },
          T0 + 10,
        );
        const expected: CronTask = { ...task, name: "renamed", enabled: false, remainingExecutions: null, lastError: "boom", updatedAt: T0 + 10, version: 2 };
        expect(updated).toEqual(expected);
        expect(await store.getTask(task.id)).toEqual(expected);
        const cleared = await store.updateTask(task.id, { lastError: null }, T0 + 20);
        expect(cleared).toEqual({ ...task, name: "renamed", enabled: false, remainingExecutions: null, updatedAt: T0 + 20, version: 3 });
        expect(cleared).not.toHaveProperty("lastError");
        const requests = [{ id: "req-1", url: "https://example.test/", method: "PUT" as const }];
        expect((await store.updateTask(task.id, { type: "http", requests, remainingExecutions: 0, timeoutSeconds: 600 }, T0 + 30))?.requests).toEqual(requests);
        expect(await store.getTask(task.id)).toMatchObject({ type: "http", requests, remainingExecutions: 0, timeoutSeconds: 600, version: 4 });
        expect(await store.updateTask("cron_missing00000", { name: "x" }, T0)).toBeUndefined();
      });
    });

    it("clears optional fields given as null (a type change), but stores remainingExecutions null as unlimited", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(promptTask({ remainingExecutions: 3, timeZone: "Europe/Paris" }), T0);
        expect(task.selectedModel).toBeDefined();
        const updated = await store.updateTask(
          task.id,
          { type: "bash", script: "echo hi", prompt: null, selectedModel: null, reasoning: null, timeZone: null, remainingExecutions: null },
          T0 + 10,
        );
        for (const field of ["prompt", "selectedModel", "reasoning", "timeZone"]) {
          expect(updated).not.toHaveProperty(field);
          expect(await store.getTask(task.id)).not.toHaveProperty(field);
        }
        expect(await store.getTask(task.id)).toMatchObject({ type: "bash", script: "echo hi", remainingExecutions: null, workdir: task.workdir });
      });
    });

    it("applies an update with expectedVersion only while the version still matches", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        expect(await store.updateTask(task.id, { name: "stale" }, T0 + 1, { expectedVersion: 2 })).toBeUndefined();
        expect(await store.getTask(task.id)).toEqual(task);
        expect((await store.updateTask(task.id, { name: "fresh" }, T0 + 1, { expectedVersion: 1 }))?.version).toBe(2);
        expect(await store.updateTask(task.id, { name: "again" }, T0 + 2, { expectedVersion: 1 })).toBeUndefined();
        expect((await store.getTask(task.id))?.name).toBe("fresh");
        expect(await store.updateTask("cron_missing00000", { name: "x" }, T0, { expectedVersion: 1 })).toBeUndefined();
      });
    });

    it("deletes a task with its runs, and says false for a task that does not exist", async () => {
      await withStore(target, async (store) => {
        const task = await store.createTask(bashTask(), T0);
        const other = await store.createTask(bashTask(), T0);
        const run = await store.claimOccurrence(claim(task.id, T0 + 60_000));
        const queued = await store.claimOccurrence(claim(task.id, T0 + 120_000, "host-a", { queue: true }));
        const kept = await store.claimOccurrence(claim(other.id, T0 + 60_000));
        expect(await store.deleteTask(task.id)).toBe(true);
        expect(await store.getTask(task.id)).toBeUndefined();
        expect(await store.getRun(run!.id)).toBeUndefined();
        expect(await store.getRun(queued!.id)).toBeUndefined();
        expect(await store.listRuns(task.id)).toEqual([]);
        expect(await store.lastScheduledAt(task.id)).toBeUndefined();
        expect(await store.claimQueuedRun({ owner: "host-b", now: T0, leaseMs: 1 })).toBeUndefined();
        expect(await store.claimOccurrence(claim(task.id, T0 + 180_000))).toBeUndefined();
        expect(await store.getRun(kept!.id)).toEqual(kept);
        expect(await store.deleteTask(task.id)).toBe(false);
      });
    });

    it("changes the fingerprint on create, update, claim with a decrement, and delete", async () => {
      await withStore(target, async (store) => {
        expect(await store.tasksFingerprint()).toEqual({ count: 0, maxUpdatedAt: 0, versionSum: 0 });
        const task = await store.createTask(bashTask({ remainingExecutions: 2 }), T0);
        const afterCreate = await store.tasksFingerprint();
        expect(afterCreate).toEqual({ count: 1, maxUpdatedAt: T0, versionSum: 1 });
        const second = await store.createTask(httpTask(), T0 + 5);
        expect(await store.tasksFingerprint()).toEqual({ count: 2, maxUpdatedAt: T0 + 5, versionSum: 2 });
        // An update with an older clock still changes the fingerprint (the version sum moves).
        await store.updateTask(task.id, { name: "x" }, T0 + 1);
        expect(await store.tasksFingerprint()).toEqual({ count: 2, maxUpdatedAt: T0 + 5, versionSum: 3 });
        await store.claimOccurrence(claim(task.id, T0 + 60_000, "host-a", { now: T0 + 7 }));
        expect(await store.tasksFingerprint()).toEqual({ count: 2, maxUpdatedAt: T0 + 7, versionSum: 4 });
        await store.deleteTask(second.id);
        expect(await store.tasksFingerprint()).toEqual({ count: 1, maxUpdatedAt: T0 + 7, versionSum: 3 });
        await store.deleteTask(task.id);
        expect(await store.tasksFingerprint()).toEqual({ count: 0, maxUpdatedAt: 0, versionSum: 0 });
      });
    });

    it("never lets a caller change stored state by mutating what it passed or got back", async () => {
      await withStore(target, async (store) => {
        const input = httpTask();
        const created = await store.createTask(input, T0);
        (input.requests as unknown as { url: string }[])[0]!.url = "https://mutated.test/";
        (created as { name: string }).name = "mutated";
        const read = await store.getTask(created.id);
        expect(read?.name).toBe("ping");
        expect(read?.requests?.[0]?.url).toBe("https://example.test/a?x=1");
        (read!.requests as unknown as { url: string }[])[0]!.url = "https://mutated.test/";
        expect((await store.getTask(created.id))?.requests?.[0]?.url).toBe("https://example.test/a?x=1");
      });
    });
  });
}
