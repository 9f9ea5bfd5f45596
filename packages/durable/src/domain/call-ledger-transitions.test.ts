import type { CallLedgerEntry } from "@agent-tools/core/durable";
import { describe, expect, it } from "vitest";
import { checkLedgerText, resultToJson } from "./call-ledger-input.js";
import { canFinish, decideApprove, decideStart, isConsistentEntry, newEntry } from "./call-ledger-transitions.js";

const call = { runId: "r", callId: "c", toolName: "Bash", argumentsHash: "h", effects: "unsafe" as const };
const entry = (overrides: Partial<CallLedgerEntry>): CallLedgerEntry => ({ ...newEntry(call, "started", 1), ...overrides });
const result = { content: [], details: {}, isError: false };

describe("the ledger's transitions", () => {
  it("start: inserts a missing call at 0, starts an approved one, restarts only at the stored attempts", () => {
    expect(decideStart(undefined, call, 0)).toEqual({ write: "insert" });
    expect(decideStart(undefined, call, 1)).toEqual({ write: "none" });
    expect(decideStart(newEntry(call, "approved", 1), call, 0)).toEqual({ write: "start", attempts: 1 });
    expect(decideStart(newEntry(call, "approved", 1), call, 1)).toEqual({ write: "none" });
    expect(decideStart(entry({ attempts: 2 }), call, 2)).toEqual({ write: "start", attempts: 3 });
    expect(decideStart(entry({ attempts: 2 }), call, 1)).toEqual({ write: "none" });
    expect(decideStart(entry({ attempts: 2 }), call, 0)).toEqual({ write: "none" });
    expect(decideStart(entry({ state: "completed", result }), call, 1)).toEqual({ write: "none" });
    expect(decideStart(entry({ toolName: "Edit" }), call, 1)).toEqual({ write: "none" });
  });

  it("finish and approve", () => {
    expect(canFinish(entry({ attempts: 2 }), 2)).toBe(true);
    expect(canFinish(entry({ attempts: 2 }), 1)).toBe(false);
    expect(canFinish(entry({ state: "failed", result }), 1)).toBe(false);
    expect(canFinish(undefined, 1)).toBe(false);
    expect(decideApprove(undefined, call)).toBe("insert");
    expect(decideApprove(entry({ state: "completed", result }), call)).toBe("mark");
    expect(decideApprove(entry({ effects: "none" }), call)).toBe("none");
  });

  it("tells consistent entries from torn ones", () => {
    expect(isConsistentEntry(newEntry(call, "approved", 1))).toBe(true);
    expect(isConsistentEntry(entry({}))).toBe(true);
    expect(isConsistentEntry(entry({ state: "completed", result }))).toBe(true);
    expect(isConsistentEntry(entry({ state: "completed" }))).toBe(false);
    expect(isConsistentEntry(entry({ result }))).toBe(false);
    expect(isConsistentEntry(entry({ attempts: 0 }))).toBe(false);
    expect(isConsistentEntry(entry({ state: "approved" }))).toBe(false);
    expect(isConsistentEntry(entry({ state: "done" as never }))).toBe(false);
  });

  it("checks key text and result JSON", () => {
    expect(checkLedgerText("runId", "é".repeat(200))).toHaveLength(200);
    expect(checkLedgerText("runId", "🧪")).toBe("🧪");
    expect(() => checkLedgerText("runId", "\udc00x")).toThrow(/lone surrogates/);
    expect(() => checkLedgerText("callId", "x".repeat(201))).toThrow(/`callId` must be at most 200/);
    expect(resultToJson({ content: [{ type: "text", text: "a" }], details: { f: () => 1 }, isError: false } as never)).toBe(
      '{"content":[{"type":"text","text":"a"}],"details":{},"isError":false}',
    );
    expect(() => resultToJson({ content: "x" } as never)).toThrow(/content/);
  });
});
