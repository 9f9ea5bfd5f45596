import { describe, expect, it } from "vitest";
import type { TaskState } from "../index.js";
import { parseStoredTaskState } from "../internal.js";
import type { TaskStateStore } from "../index.js";

/** How {@link runTaskStateStoreContract} reaches the store under test. */
export interface TaskStateStoreContractTarget {
  /** Opens a store; every call may return a new store over the same backend. */
  open(): Promise<TaskStateStore>;
  /** Releases a store the suite opened; default `store.close?.()`. */
  dispose?(store: TaskStateStore): Promise<void>;
  /** True when stores from separate `open()` calls share one backend (a database); checks that a save is visible to the other. */
  sharedBackend?: boolean;
}

let counter = 0;
const conversation = (): string => `contract-${process.pid}-${Date.now().toString(36)}-${(counter += 1)}`;

function sampleState(runId: string, revision = 1): TaskState {
  return {
    runId,
    revision,
    nextTaskId: 3,
    tasks: [
      { id: "1", subject: "Plan ✓ naïve", description: "Quotes \" and ' and\nlines", activeForm: "Planning", status: "completed" },
      { id: "2", subject: "Build", description: "Build it", activeForm: "Building", status: "in_progress" },
    ],
  };
}

/**
 * The contract every {@link TaskStateStore} meets: absent lists, round trips,
 * compare-and-set versions (including racing writers), independent
 * conversations, delete, and copies rather than shared objects. Every test
 * uses fresh conversation ids, so one backend serves all.
 *
 * @example
 * runTaskStateStoreContract("in-memory", { open: async () => new InMemoryTaskStateStore() });
 */
export function runTaskStateStoreContract(label: string, target: TaskStateStoreContractTarget): void {
  describe(`TaskStateStore contract: ${label}`, () => {
    async function withStore(body: (store: TaskStateStore) => Promise<void>): Promise<void> {
      const store = await target.open();
      try {
        await body(store);
      } finally {
        await (target.dispose ? target.dispose(store) : store.close?.());
      }
    }

    it("returns undefined for a conversation without state", async () => {
      await withStore(async (store) => {
        expect(await store.load(conversation())).toBeUndefined();
      });
    });

    it("round-trips a state that the parser accepts", async () => {
      await withStore(async (store) => {
        const id = conversation();
        const state = sampleState("run-1");
        expect(await store.save(id, state, { expectedVersion: undefined })).toBe(true);
        const loaded = await store.load(id);
        expect(loaded?.state).toEqual(state);
        expect(Number.isSafeInteger(loaded?.version)).toBe(true);
        expect(parseStoredTaskState(loaded?.state)).toEqual({ ok: true, state });
      });
    });

    it("saves only over the expected version", async () => {
      await withStore(async (store) => {
        const id = conversation();
        expect(await store.save(id, sampleState("run-1", 1), { expectedVersion: undefined })).toBe(true);
        const first = await store.load(id);
        // Creating again is refused: something is stored now.
        expect(await store.save(id, sampleState("run-x", 9), { expectedVersion: undefined })).toBe(false);
        expect(await store.save(id, sampleState("run-1", 2), { expectedVersion: first!.version })).toBe(true);
        const second = await store.load(id);
        expect(second!.version).toBeGreaterThan(first!.version);
        expect((second!.state as TaskState).revision).toBe(2);
        // A stale version is refused and writes nothing.
        expect(await store.save(id, sampleState("run-1", 3), { expectedVersion: first!.version })).toBe(false);
        expect(await store.load(id)).toEqual(second);
      });
    });

    it("lets exactly one of several racing writers win", async () => {
      await withStore(async (store) => {
        const id = conversation();
        await store.save(id, sampleState("run-1", 1), { expectedVersion: undefined });
        const { version } = (await store.load(id))!;
        const outcomes = await Promise.all([2, 3, 4, 5, 6].map((revision) => store.save(id, sampleState("run-1", revision), { expectedVersion: version })));
        expect(outcomes.filter(Boolean)).toHaveLength(1);
        const winner = [2, 3, 4, 5, 6][outcomes.indexOf(true)];
        expect(((await store.load(id))!.state as TaskState).revision).toBe(winner);
      });
    });

    it("keeps conversations independent", async () => {
      await withStore(async (store) => {
        const a = conversation();
        const b = conversation();
        await store.save(a, sampleState("run-a"), { expectedVersion: undefined });
        await store.save(b, sampleState("run-b"), { expectedVersion: undefined });
        expect(((await store.load(a))!.state as TaskState).runId).toBe("run-a");
        expect(((await store.load(b))!.state as TaskState).runId).toBe("run-b");
        await store.delete(a);
        expect(await store.load(a)).toBeUndefined();
        expect(((await store.load(b))!.state as TaskState).runId).toBe("run-b");
      });
    });

    it("deletes idempotently and accepts a fresh create afterwards", async () => {
      await withStore(async (store) => {
        const id = conversation();
        await store.delete(id);
        await store.save(id, sampleState("run-1"), { expectedVersion: undefined });
        await store.delete(id);
        await store.delete(id);
        expect(await store.load(id)).toBeUndefined();
        expect(await store.save(id, sampleState("run-2"), { expectedVersion: undefined })).toBe(true);
        expect(((await store.load(id))!.state as TaskState).runId).toBe("run-2");
      });
    });

    it("stores a copy: later changes to the saved or loaded object do not leak in", async () => {
      await withStore(async (store) => {
        const id = conversation();
        const state = structuredClone(sampleState("run-1")) as { -readonly [K in keyof TaskState]: TaskState[K] };
        await store.save(id, state, { expectedVersion: undefined });
        state.revision = 99;
        const loaded = await store.load(id);
        (loaded!.state as { revision: number }).revision = 42;
        expect(((await store.load(id))!.state as TaskState).revision).toBe(1);
      });
    });

    it.runIf(target.sharedBackend === true)("is visible to another store over the same backend", async () => {
      const id = conversation();
      await withStore(async (first) => {
        await first.save(id, sampleState("run-shared"), { expectedVersion: undefined });
        await withStore(async (second) => {
          expect(((await second.load(id))!.state as TaskState).runId).toBe("run-shared");
          expect(await second.save(id, sampleState("run-other"), { expectedVersion: undefined })).toBe(false);
        });
      });
    });
  });
}
