import { ScriptedModelClient } from "@agent-tools/core/testing";
import { describe, expect, it } from "vitest";
import type { MemoryOrganizeRun } from "../domain/memory-types.js";
import { applyMemoryPlan } from "./apply-memory-plan.js";
import { MemoryExtractionBudget } from "./extraction-budget.js";
import type { MemoryPlanBatchResult, MemoryPlanTarget } from "./memory-plan-target.js";
import { type MemoryExtractionTurn, runMemoryExtraction } from "./run-memory-extraction.js";
import type { ValidatedPlanItem } from "./validated-plan-item.js";

/** A target that records batches and fails the items whose slug is listed. */
class FakeTarget implements MemoryPlanTarget {
  readonly batches: { items: readonly ValidatedPlanItem[]; options: { actor: "extractor"; conversationId?: string } }[] = [];
  constructor(readonly failing: ReadonlySet<string> = new Set()) {}
  async applyBatch(items: readonly ValidatedPlanItem[], options: { actor: "extractor"; conversationId?: string }): Promise<MemoryPlanBatchResult> {
    this.batches.push({ items, options });
    const results = items.map((item) =>
      item.slug !== undefined && this.failing.has(item.slug)
        ? { index: item.index, ok: false, error: { error: "risk_hard_blocked", message: "secret" } }
        : { index: item.index, ok: true },
    );
    return { applied: results.filter((result) => result.ok).length, results };
  }
}

const turns: MemoryExtractionTurn[] = Array.from({ length: 6 }, (_, index) => ({ user: `question ${index + 1}`, assistant: `answer ${index + 1}` }));
const write = {
  action: "write",
  slug: "editor-theme",
  type: "user",
  description: "Prefers dark mode",
  body: "Dark mode.",
  confidence: "high",
  source_quote: "I use dark mode",
};
const plan = (items: unknown[], status = "updated") => ({ toolCalls: [{ name: "SubmitMemoryPlan", arguments: { status, items } }] });

function recordingLog() {
  const runs: MemoryOrganizeRun[] = [];
  return { runs, saveOrganizeRun: async (run: MemoryOrganizeRun) => void runs.push(run) };
}

describe("runMemoryExtraction", () => {
  it("sends the last 4 turns with SubmitMemoryPlan as the only tool and applies the plan", async () => {
    const model = new ScriptedModelClient([plan([write, { action: "append_daily", body: "- set up the editor" }])]);
    const target = new FakeTarget();
    const runLog = recordingLog();
    const budget = new MemoryExtractionBudget();
    const outcome = await runMemoryExtraction({
      model,
      target,
      turns,
      budget,
      now: 1_000,
      conversationId: "conv-1",
      runLog,
      runId: "run-1",
      knownEntries: [{ scope: "global", slug: "old-entry", type: "user", description: "Old" }],
    });

    const request = model.requests[0];
    expect(request.tools?.map((tool) => tool.name)).toEqual(["SubmitMemoryPlan"]);
    expect(request.toolChoice).toBe("required");
    const transcript = request.messages.map((message) => ("content" in message ? message.content : "")).join("\n");
    expect(transcript).toContain("question 3");
    expect(transcript).toContain("answer 6");
    expect(transcript).not.toContain("question 2");
    expect(transcript).toContain("global/old-entry (user): Old");

    expect(target.batches).toHaveLength(1);
    expect(target.batches[0].options).toEqual({ actor: "extractor", conversationId: "conv-1" });
    expect(target.batches[0].items.map((item) => item.action)).toEqual(["write", "append_daily"]);
    expect(outcome.run).toEqual({ id: "run-1", startedAt: 1_000, finishedAt: 1_000, conversationId: "conv-1", status: "updated", applied: 2, rejected: 0 });
    expect(runLog.runs).toEqual([outcome.run]);
    expect(budget.recentWrittenSlugs()).toEqual(["editor-theme"]);
  });

  it("reports rejected items and does not apply them; the user's rejections come from the budget", async () => {
    const budget = new MemoryExtractionBudget();
    budget.rememberRejected(["editor-theme"]);
    const model = new ScriptedModelClient([
      plan([
        write,
        { action: "write", slug: "x" },
        { action: "delete", slug: "stale-entry" },
        { action: "write", slug: "api-key", type: "reference", description: "Key", body: "k" },
      ]),
    ]);
    const target = new FakeTarget(new Set(["api-key"]));
    const outcome = await runMemoryExtraction({ model, target, turns, budget, now: 0, writtenThisTurn: new Set(["stale-entry"]) });
    expect(outcome.plan?.rejected.map((entry) => [entry.index, entry.code])).toEqual([
      [0, "rejected-slug-no-override"],
      [1, "missing-slug"],
      [2, "already-written-this-turn"],
    ]);
    expect(target.batches[0].items.map((item) => item.slug)).toEqual(["api-key"]);
    expect(outcome.run).toMatchObject({ status: "noop", applied: 0, rejected: 4 });
    expect(outcome.plan?.results).toEqual([{ index: 3, ok: false, error: { error: "risk_hard_blocked", message: "secret" } }]);
    expect(budget.recentWrittenSlugs()).toEqual([]);
  });

  it("records a noop plan without calling the target", async () => {
    const model = new ScriptedModelClient([plan([], "noop")]);
    const target = new FakeTarget();
    const outcome = await runMemoryExtraction({ model, target, turns, budget: new MemoryExtractionBudget(), now: 0 });
    expect(target.batches).toEqual([]);
    expect(outcome.run).toMatchObject({ status: "noop", applied: 0, rejected: 0 });
  });

  it("skips a run that comes too soon after the previous one, without asking the model", async () => {
    const budget = new MemoryExtractionBudget();
    const model = new ScriptedModelClient([plan([], "noop")]);
    const runLog = recordingLog();
    await runMemoryExtraction({ model, target: new FakeTarget(), turns, budget, now: 10_000, runLog });
    const second = await runMemoryExtraction({ model, target: new FakeTarget(), turns, budget, now: 39_999, runLog });
    expect(second).toMatchObject({ skipped: "too_soon", run: { status: "skipped", note: "too_soon" } });
    expect(model.requests).toHaveLength(1);
    expect(runLog.runs).toHaveLength(1);
    const third = await runMemoryExtraction({ model: new ScriptedModelClient([plan([], "noop")]), target: new FakeTarget(), turns, budget, now: 40_000 });
    expect(third.run.status).toBe("noop");
  });

  it("aborts the model after the timeout and applies nothing", async () => {
    const budget = new MemoryExtractionBudget({ timeoutMs: 50 });
    const model = new ScriptedModelClient([() => new Promise(() => {})]);
    const target = new FakeTarget();
    let clock = 0;
    const outcome = await runMemoryExtraction({ model, target, turns, budget, now: () => clock++ });
    expect(outcome.run).toMatchObject({ status: "timeout", applied: 0 });
    expect(model.requests[0].signal?.aborted).toBe(true);
    expect(target.batches).toEqual([]);
    expect(budget.canStart(10)).toMatchObject({ ok: false, reason: "too_soon" });
  });

  it("does not apply a late plan from a model that ignores the abort", async () => {
    const budget = new MemoryExtractionBudget({ timeoutMs: 20 });
    const model = {
      id: "deaf",
      async generate() {
        await new Promise((resolve) => setTimeout(resolve, 60));
        return {
          text: "",
          toolCalls: [{ id: "1", name: "SubmitMemoryPlan", arguments: JSON.stringify({ status: "updated", items: [write] }) }],
          finishReason: "tool-calls" as const,
        };
      },
    };
    const target = new FakeTarget();
    const outcome = await runMemoryExtraction({ model, target, turns, budget, now: 0 });
    expect(outcome.run.status).toBe("timeout");
    expect(target.batches).toEqual([]);
  });

  it("ends as failed when the caller aborts, the model errs, calls no tool or sends malformed JSON", async () => {
    const controller = new AbortController();
    const waiting = new ScriptedModelClient([
      () => {
        controller.abort();
        return new Promise(() => {});
      },
    ]);
    const aborted = await runMemoryExtraction({
      model: waiting,
      target: new FakeTarget(),
      turns,
      budget: new MemoryExtractionBudget(),
      now: 0,
      signal: controller.signal,
    });
    expect(aborted.run).toMatchObject({ status: "failed", note: "aborted" });

    const cases = [
      [{ error: new Error("HTTP 500 from provider") }, "HTTP 500 from provider"],
      ["I have nothing to add.", "did not call SubmitMemoryPlan"],
      [{ toolCalls: [{ name: "SubmitMemoryPlan", arguments: "{oops" }] }, "not valid JSON"],
    ] as const;
    for (const [step, note] of cases) {
      const outcome = await runMemoryExtraction({
        model: new ScriptedModelClient([step]),
        target: new FakeTarget(),
        turns,
        budget: new MemoryExtractionBudget(),
        now: 0,
      });
      expect(outcome.run.status).toBe("failed");
      expect(outcome.run.note).toContain(note);
    }
  });

  it("skips at once when the signal is already aborted", async () => {
    const model = new ScriptedModelClient([]);
    const outcome = await runMemoryExtraction({
      model,
      target: new FakeTarget(),
      turns,
      budget: new MemoryExtractionBudget(),
      now: 0,
      signal: AbortSignal.abort(),
    });
    expect(outcome).toMatchObject({ skipped: "aborted", run: { status: "skipped" } });
    expect(model.requests).toEqual([]);
  });
});

describe("applyMemoryPlan", () => {
  it("validates, applies the accepted items as one batch and lists the slugs written", async () => {
    const target = new FakeTarget();
    const outcome = await applyMemoryPlan(
      { status: "updated", items: [write, { action: "accept" }] },
      { target, context: { projectScopeAllowed: false, writtenThisTurn: new Set(), rejectedSlugs: new Set() } },
    );
    expect(outcome).toMatchObject({ applied: 1, writtenSlugs: ["editor-theme"], rejected: [{ index: 1, code: "missing-slug" }] });
    expect(target.batches[0].options).toEqual({ actor: "extractor" });
  });
});
