import { expect, it } from "vitest";
import type { MemoryAuditEntry } from "../domain/memory-types.js";
import { type ContractContext, fixture, keyOf } from "./memory-contract-fixtures.js";

/** The audit log, organise runs, and closing one of several stores. */
export function describeMemoryIndexLogContract(context: ContractContext): void {
  const { target, withStore, put } = context;
  it("returns audit entries newest first, filtered by slug and limited", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const future = Date.now() + 10 ** 12 + f.number * 1000;
      const entry = (slug: string, at: number, op: MemoryAuditEntry["op"]): MemoryAuditEntry => ({
        at,
        op,
        actor: "tool",
        scope: "project",
        workdirHash: f.project.workdirHash,
        slug: `${f.prefix}-${slug}`,
      });
      const entries = [entry("a", future + 1, "write"), entry("b", future + 2, "write"), entry("a", future + 3, "update"), entry("a", future + 3, "accept")];
      expect(await store.applyBatch([], entries.slice(0, 2))).toEqual({ ok: true });
      expect(await store.applyBatch([], [{ ...entries[2]!, detail: { mode: "merge", nested: { list: [1, 2] } } }, entries[3]!])).toEqual({ ok: true });
      const forA = await store.audit({ slug: `${f.prefix}-a` });
      expect(forA.map((item) => item.op)).toEqual(["accept", "update", "write"]);
      expect(forA[1]?.detail).toEqual({ mode: "merge", nested: { list: [1, 2] } });
      expect(forA[0]).toEqual(entries[3]);
      expect((await store.audit({ slug: `${f.prefix}-a`, limit: 1 })).map((item) => item.op)).toEqual(["accept"]);
      expect((await store.audit({ limit: 4 })).map((item) => [item.slug, item.op])).toEqual([
        [`${f.prefix}-a`, "accept"],
        [`${f.prefix}-a`, "update"],
        [`${f.prefix}-b`, "write"],
        [`${f.prefix}-a`, "write"],
      ]);
    });
  });

  it("upserts organise runs by id and returns them newest first", async () => {
    await withStore(async (store) => {
      const f = fixture();
      const future = Date.now() + 2 * 10 ** 12 + f.number * 1000;
      await store.saveOrganizeRun({ id: `${f.prefix}-1`, startedAt: future + 1, status: "running", applied: 0, rejected: 0 });
      await store.saveOrganizeRun({
        id: `${f.prefix}-2`,
        startedAt: future + 2,
        finishedAt: future + 5,
        status: "noop",
        applied: 0,
        rejected: 1,
        note: "nothing",
      });
      await store.saveOrganizeRun({
        id: `${f.prefix}-1`,
        startedAt: future + 1,
        finishedAt: future + 9,
        status: "updated",
        applied: 3,
        rejected: 2,
        note: "done",
        conversationId: "conv-9",
      });
      const runs = await store.organizeRuns(2);
      expect(runs).toEqual([
        { id: `${f.prefix}-2`, startedAt: future + 2, finishedAt: future + 5, status: "noop", applied: 0, rejected: 1, note: "nothing" },
        {
          id: `${f.prefix}-1`,
          startedAt: future + 1,
          finishedAt: future + 9,
          status: "updated",
          applied: 3,
          rejected: 2,
          note: "done",
          conversationId: "conv-9",
        },
      ]);
      expect(await store.organizeRuns(1)).toHaveLength(1);
    });
  });

  it.runIf(target.sharedBackend === true)("closing one store leaves another over the same backend working", async () => {
    const f = fixture();
    const record = f.record("survivor");
    await withStore(async (second) => {
      const first = await target.open();
      await put(first, record);
      await (target.dispose ? target.dispose(first) : first.close?.());
      expect(await second.get(keyOf(record))).toEqual(record);
      await put(second, { ...record, body: "after close", updatedAt: 2 });
    });
    await withStore(async (third) => {
      expect((await third.get(keyOf(record)))?.body).toBe("after close");
    });
  });
}
