import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ToolResult, toolResultText } from "@agent-tools/core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type BuiltinToolRegistryOptions, buildBuiltinToolRegistry } from "../build-builtin-tool-registry.js";
import type { BuiltinToolRegistry } from "../builtin-tool-types.js";
import type { AskUserQuestionRequest, ExitPlanModeRequest, InteractionCallbackOptions } from "./interaction-types.js";

const temporary = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "agent-tools-interaction-")));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));
const CANCELLED = "Cancelled: the host aborted this call before it finished.";

let open: BuiltinToolRegistry | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function build(options: Partial<BuiltinToolRegistryOptions> = {}): Promise<BuiltinToolRegistry> {
  const workdir = fs.mkdtempSync(path.join(temporary, "w-"));
  open = await buildBuiltinToolRegistry({ workdir, dataDir: path.join(workdir, ".data"), memory: false, ...options });
  return open;
}

const text = (result: ToolResult) => toolResultText(result, "");
const names = (registry: BuiltinToolRegistry) => registry.tools.map((tool) => tool.name);

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const question = (extra: Record<string, unknown> = {}) => ({
  question: "Which database should the service use?",
  header: "Database",
  options: [
    { label: "SQLite", description: "One file, no server." },
    { label: "PostgreSQL", description: "A server, for many writers." },
  ],
  ...extra,
});

describe("AskUserQuestion", () => {
  it("is not listed without a callback, and a call is refused with what to do instead", async () => {
    const registry = await build();
    expect(names(registry)).not.toContain("AskUserQuestion");
    expect(registry.hasTool("AskUserQuestion")).toBe(true);
    const result = await registry.executeToolCall({ id: "q", name: "AskUserQuestion", arguments: { questions: [question()] } });
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ code: "unavailable" });
    expect(text(result)).toContain("cannot show questions to the user");
    expect(text(result)).toContain("in your reply");
  });

  it("is not offered in the cron scope", async () => {
    const registry = await build({ runtimeScope: "cron", interaction: { onAskUserQuestion: async () => ({ declined: true }) } });
    expect(registry.hasTool("AskUserQuestion")).toBe(false);
    expect(registry.hasTool("ExitPlanMode")).toBe(false);
  });

  it("hands the questions to the host with the call's signal and returns a single answer", async () => {
    const requests: Array<[AskUserQuestionRequest, InteractionCallbackOptions]> = [];
    const registry = await build({
      interaction: {
        onAskUserQuestion: async (request, options) => {
          requests.push([request, options]);
          return { answers: { "Which database should the service use?": "SQLite" } };
        },
      },
    });
    expect(names(registry)).toContain("AskUserQuestion");
    const result = await registry.executeToolCall({ id: "q1", name: "AskUserQuestion", arguments: { questions: [question()] } });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe("The user answered:\n1. Which database should the service use?\n   Answer: SQLite");
    expect(result.details).toEqual({
      questions: [{ ...question(), multiSelect: false }],
      answers: { "Which database should the service use?": "SQLite" },
      declined: false,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]![0]).toEqual({ callId: "q1", questions: [{ ...question(), multiSelect: false }] });
    expect(requests[0]![1].signal).toBeInstanceOf(AbortSignal);
  });

  it("returns the picks of a multi-select question and a free-text answer; a missing answer reads as none", async () => {
    const registry = await build({
      interaction: {
        onAskUserQuestion: async () => ({
          answers: { "Which checks should run?": ["lint", "tests"], "Anything else?": "Keep it small." },
        }),
      },
    });
    const result = await registry.executeToolCall({
      id: "q2",
      name: "AskUserQuestion",
      arguments: {
        questions: [
          { question: "Which checks should run?", options: [{ label: "lint" }, { label: "tests" }, { label: "bench" }], multiSelect: true },
          { question: "Anything else?" },
          { question: "Which branch?" },
        ],
      },
    });
    expect(result.isError).toBe(false);
    expect(text(result)).toBe(
      "The user answered:\n1. Which checks should run?\n   Answer: lint, tests\n2. Anything else?\n   Answer: Keep it small.\n3. Which branch?\n   Answer: (no answer)",
    );
    expect(result.details).toMatchObject({ answers: { "Which checks should run?": ["lint", "tests"], "Anything else?": "Keep it small." } });
  });

  it("tells the model when the user declines", async () => {
    const registry = await build({ interaction: { onAskUserQuestion: async () => ({ declined: true }) } });
    const result = await registry.executeToolCall({ id: "q3", name: "AskUserQuestion", arguments: { questions: [question()] } });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("declined to answer");
    expect(result.details).toMatchObject({ declined: true });
    expect(result.details).not.toHaveProperty("answers");
  });

  it("is cancelled by the call's signal while the user has not answered; the host's signal aborts too", async () => {
    let hostSignal: AbortSignal | undefined;
    const registry = await build({
      interaction: {
        onAskUserQuestion: (_request, { signal }) => {
          hostSignal = signal;
          return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
        },
      },
    });
    const controller = new AbortController();
    const pending = registry.executeToolCall({ id: "q4", name: "AskUserQuestion", arguments: { questions: [question()] } }, { signal: controller.signal });
    await until(() => hostSignal !== undefined, "the host to be asked");
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ isError: true, details: { cancelled: true } });
    expect(text(result)).toBe(CANCELLED);
    expect(hostSignal?.aborted).toBe(true);
  });

  it("reports a host failure without inventing answers", async () => {
    const registry = await build({
      interaction: {
        onAskUserQuestion: async () => {
          throw new Error("dialog crashed");
        },
      },
    });
    const result = await registry.executeToolCall({ id: "q5", name: "AskUserQuestion", arguments: { questions: [question()] } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("dialog crashed");
  });

  it.each([
    ["no questions", { questions: [] }, "`questions` must have at least 1 item(s)"],
    ["five questions", { questions: [1, 2, 3, 4, 5].map((n) => ({ question: `Q${n}?` })) }, "`questions` must have at most 4 item(s)"],
    ["one option", { questions: [{ question: "Q?", options: [{ label: "only" }] }] }, "`questions.0.options` must have at least 2 item(s)"],
    [
      "five options",
      { questions: [{ question: "Q?", options: ["a", "b", "c", "d", "e"].map((label) => ({ label })) }] },
      "`questions.0.options` must have at most 4 item(s)",
    ],
    ["a repeated question", { questions: [{ question: "Q?" }, { question: "Q?" }] }, "`questions.1.question`: repeats an earlier question"],
    [
      "repeated labels",
      { questions: [{ question: "Q?", options: [{ label: "a" }, { label: "a" }] }] },
      "`questions.0.options.1.label`: repeats another option's label",
    ],
    ["multiSelect without options", { questions: [{ question: "Q?", multiSelect: true }] }, "`questions.0.multiSelect`: needs options"],
    ["an empty question", { questions: [{ question: "  " }] }, "`questions.0.question` must have at least 1 character(s)"],
  ])("refuses %s with a message naming the field, without asking the user", async (_label, args, message) => {
    let asked = 0;
    const registry = await build({
      interaction: {
        onAskUserQuestion: async () => {
          asked += 1;
          return { declined: true };
        },
      },
    });
    const result = await registry.executeToolCall({ id: "bad", name: "AskUserQuestion", arguments: args });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(message);
    expect(asked).toBe(0);
  });
});

describe("ExitPlanMode", () => {
  const plan = "1. Add the column.\n2. Backfill it.\n3. Run the tests.";

  it("is listed only in plan mode with a callback; approved, it leaves plan mode and fires onToolsChanged", async () => {
    const requests: ExitPlanModeRequest[] = [];
    const registry = await build({
      interaction: {
        planMode: true,
        onExitPlanMode: async (request) => {
          requests.push(request);
          return { approved: true };
        },
      },
    });
    expect(names(registry)).toContain("ExitPlanMode");
    expect(names(registry)).not.toContain("Write");
    let changes = 0;
    registry.onToolsChanged(() => {
      changes += 1;
    });
    const result = await registry.executeToolCall({ id: "x1", name: "ExitPlanMode", arguments: { plan } });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("approved the plan");
    expect(text(result)).toContain("carry out the plan");
    expect(result.details).toEqual({ approved: true, planMode: false });
    expect(requests).toEqual([{ callId: "x1", plan }]);
    expect(registry.planMode).toBe(false);
    expect(changes).toBe(1);
    expect(names(registry)).toContain("Write");
    expect(names(registry)).not.toContain("ExitPlanMode");
  });

  it("stays in plan mode when the user rejects the plan, and returns the feedback", async () => {
    const registry = await build({ interaction: { planMode: true, onExitPlanMode: async () => ({ approved: false, feedback: "Backfill in batches." }) } });
    const result = await registry.executeToolCall({ id: "x2", name: "ExitPlanMode", arguments: { plan } });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("did not approve");
    expect(text(result)).toContain("Backfill in batches.");
    expect(result.details).toEqual({ approved: false, feedback: "Backfill in batches.", planMode: true });
    expect(registry.planMode).toBe(true);
    expect(names(registry)).toContain("ExitPlanMode");
  });

  it("is not listed without a callback, even in plan mode; a call is refused and plan mode stays", async () => {
    const registry = await build({ interaction: { planMode: true } });
    expect(names(registry)).not.toContain("ExitPlanMode");
    const result = await registry.executeToolCall({ id: "x3", name: "ExitPlanMode", arguments: { plan } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("cannot show a plan to the user");
    expect(registry.planMode).toBe(true);
  });

  it("stays in plan mode when the call is aborted, even if the host approves afterwards", async () => {
    let approve: ((value: { approved: boolean }) => void) | undefined;
    const registry = await build({
      interaction: {
        planMode: true,
        onExitPlanMode: () =>
          new Promise((resolve) => {
            approve = resolve;
          }),
      },
    });
    const controller = new AbortController();
    const pending = registry.executeToolCall({ id: "x4", name: "ExitPlanMode", arguments: { plan } }, { signal: controller.signal });
    await until(() => approve !== undefined, "the host to be asked");
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ isError: true, details: { cancelled: true } });
    approve?.({ approved: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(registry.planMode).toBe(true);
  });

  it("outside plan mode is not listed, and a call changes nothing and asks no one", async () => {
    let asked = 0;
    const registry = await build({
      interaction: {
        onExitPlanMode: async () => {
          asked += 1;
          return { approved: true };
        },
      },
    });
    expect(names(registry)).not.toContain("ExitPlanMode");
    const result = await registry.executeToolCall({ id: "x5", name: "ExitPlanMode", arguments: { plan } });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain("already off");
    expect(asked).toBe(0);
  });

  it("refuses an empty plan", async () => {
    const registry = await build({ interaction: { planMode: true, onExitPlanMode: async () => ({ approved: true }) } });
    const result = await registry.executeToolCall({ id: "x6", name: "ExitPlanMode", arguments: { plan: " " } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("`plan` must have at least 1 character(s)");
    expect(registry.planMode).toBe(true);
  });
});
