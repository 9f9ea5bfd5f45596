import type { CallLedger, CallLedgerEntry } from "@agent-tools/core/durable";
import { expect, it } from "vitest";
import { ODD_KEYS, freshRunId, rejectsWith, sampleCall, textResult } from "./call-ledger-samples.js";

/** Entries sorted as `list` must answer them: creation time, then call id in code point (UTF-8 byte) order. */
function inListOrder(entries: readonly CallLedgerEntry[]): CallLedgerEntry[] {
  return [...entries].sort((left, right) => left.createdAt - right.createdAt || Buffer.compare(Buffer.from(left.callId), Buffer.from(right.callId)));
}

/** The contract's cases on keys (odd, invalid) and on `list` (order, limits), inside the suite's describe. */
export function runKeyAndListCases(withLedger: (body: (ledger: CallLedger) => Promise<void>) => Promise<void>): void {
  it("stores keys with odd characters exactly, and refuses invalid ones", async () => {
    await withLedger(async (ledger) => {
      for (const odd of ODD_KEYS) {
        const call = sampleCall(odd, odd, { toolName: `mcp__${odd}`.slice(0, 200), argumentsHash: odd });
        expect((await ledger.start(call, 0)).claimed).toBe(true);
        expect(await ledger.get(call)).toMatchObject({ ...call, state: "started" });
        expect((await ledger.list(odd)).map((entry) => entry.callId)).toEqual([odd]);
        expect(await ledger.deleteRun(odd)).toBe(1);
      }
      // LIKE-pattern characters match only themselves.
      const base = freshRunId();
      await ledger.start(sampleCall(`${base}_%`, "c"), 0);
      await ledger.start(sampleCall(`${base}xy`, "c"), 0);
      expect(await ledger.list(`${base}_%`)).toHaveLength(1);
      expect(await ledger.deleteRun(`${base}_%`)).toBe(1);
      expect(await ledger.list(`${base}xy`)).toHaveLength(1);
      const bad: Array<[string, unknown]> = [
        ["runId", ""],
        ["runId", "x".repeat(201)],
        ["callId", "nul\u0000inside"],
        ["callId", "lone \ud800 surrogate"],
        ["runId", 42],
        ["toolName", ""],
        ["effects", "maybe"],
      ];
      for (const [field, value] of bad) {
        const call = { ...sampleCall(base, "ok"), [field]: value } as never;
        await rejectsWith(ledger.start(call, 0), "invalid_options", new RegExp(field));
        await rejectsWith(ledger.approve(call), "invalid_options", new RegExp(field));
        if (field === "runId" || field === "callId") {
          await rejectsWith(ledger.get(call), "invalid_options", new RegExp(field));
          await rejectsWith(ledger.finish(call, 1, { state: "completed", result: textResult("x") }), "invalid_options", new RegExp(field));
        }
      }
      for (const attempts of [-1, 1.5, Number.NaN, "1"])
        await rejectsWith(ledger.start(sampleCall(base, "ok"), attempts as never), "invalid_options", /expectedAttempts/);
      await rejectsWith(ledger.finish(sampleCall(base, "ok"), 0, { state: "completed", result: textResult("x") }), "invalid_options", /attempt/);
      expect(await ledger.get(sampleCall(base, "ok"))).toBeUndefined();
    });
  });

  it("lists a run in creation order, then call id, up to the limit", async () => {
    await withLedger(async (ledger) => {
      const runId = freshRunId();
      const created: CallLedgerEntry[] = [];
      for (const callId of ["zulu", "alpha", "mike"]) {
        created.push((await ledger.start(sampleCall(runId, callId), 0)).entry);
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      // Written in one millisecond or not: call ids break ties in code point order (upper case before lower, ASCII before others).
      const together = await Promise.all(["b", "B", "é", "a", "_"].map((callId) => ledger.approve(sampleCall(runId, callId))));
      const all = [...created, ...together];
      expect((await ledger.list(runId)).map((entry) => entry.callId)).toEqual(inListOrder(all).map((entry) => entry.callId));
      expect((await ledger.list(runId)).slice(0, 3).map((entry) => entry.callId)).toEqual(["zulu", "alpha", "mike"]);
      expect((await ledger.list(runId, { limit: 2 })).map((entry) => entry.callId)).toEqual(["zulu", "alpha"]);
      expect(await ledger.list(runId, { limit: 100 })).toHaveLength(8);
      expect(await ledger.list(freshRunId())).toEqual([]);
      for (const limit of [0, -1, 1.5, 100_001, "2"]) await rejectsWith(ledger.list(runId, { limit: limit as never }), "invalid_options", /limit/);
    });
  });

  it("lists at most 1,000 entries by default", async () => {
    await withLedger(async (ledger) => {
      const runId = freshRunId();
      const ids = Array.from({ length: 1003 }, (_, index) => `c${String(index).padStart(4, "0")}`);
      for (let index = 0; index < ids.length; index += 100)
        await Promise.all(ids.slice(index, index + 100).map((callId) => ledger.approve(sampleCall(runId, callId))));
      const listed = await ledger.list(runId);
      expect(listed).toHaveLength(1000);
      expect(listed).toEqual(inListOrder(listed));
      expect(await ledger.list(runId, { limit: 2000 })).toHaveLength(1003);
      expect(await ledger.deleteRun(runId)).toBe(1003);
    });
  }, 60_000);
}
