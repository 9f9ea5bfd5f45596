import { describe, expect, it } from "vitest";
import { applyEvent } from "../src/page/apply-event.js";
import { pageReducer } from "../src/page/page-reducer.js";
import { type ToolCallItem, type ViewState, createInitialViewState } from "../src/page/view-state.js";
import type { ConversationEvent } from "../src/protocol/messages.js";

/** A user turn with streamed text, a Bash call with streamed output, a second model turn and the end. */
const TURN: ConversationEvent[] = [
  { type: "turn-start", messageId: "m1", text: "run the tests" },
  { type: "session-start", model: "demo", workdir: "/w", runtimeScope: "interactive", tools: ["Bash"], prompt: "run the tests" },
  { type: "model-start", turn: 1 },
  { type: "model-text-delta", turn: 1, text: "Running " },
  { type: "model-text-delta", turn: 1, text: "them." },
  { type: "model-end", turn: 1, text: "Running them.", toolCalls: [], finishReason: "tool-calls", durationMs: 5 },
  { type: "tool-start", turn: 1, callId: "c1", toolName: "Bash", arguments: { command: "npm test" }, parallel: false },
  { type: "tool-output", callId: "c1", toolName: "Bash", update: { text: "ok 1\n", stream: "stdout" } },
  { type: "tool-output", callId: "c1", toolName: "Bash", update: { text: "ok 2\n", stream: "stdout" } },
  { type: "tool-output", callId: "c1", toolName: "Bash", update: { text: "warn\n", stream: "stderr" } },
  {
    type: "tool-end",
    turn: 1,
    callId: "c1",
    toolName: "Bash",
    arguments: { command: "npm test" },
    isError: false,
    text: "# Shell Session",
    details: { status: "completed", session_id: "s1", exit_code: 0, output: [] },
    durationMs: 40,
  },
  { type: "model-start", turn: 2 },
  { type: "model-text-delta", turn: 2, text: "All green." },
  { type: "model-end", turn: 2, text: "All green.", toolCalls: [], finishReason: "stop", durationMs: 5 },
  { type: "session-end", status: "answered", turns: 2, toolCalls: 1, failedToolCalls: 0, durationMs: 60, finalText: "All green." },
  { type: "turn-end", messageId: "m1", status: "answered" },
];

function applyAll(events: readonly ConversationEvent[], state: ViewState = createInitialViewState(), firstSeq = 1): ViewState {
  return events.reduce((current, event, index) => applyEvent(current, firstSeq + index, event), state);
}

describe("applyEvent", () => {
  it("builds user, assistant and tool entries in order, one assistant bubble per model turn", () => {
    const state = applyAll(TURN);
    expect(state.items.map((item) => item.kind)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(state.items[1]).toMatchObject({ kind: "assistant", text: "Running them.", turn: 1, done: true });
    expect(state.items[3]).toMatchObject({ kind: "assistant", text: "All green.", turn: 2, done: true });
    const tool = state.items[2] as ToolCallItem;
    expect(tool).toMatchObject({ callId: "c1", toolName: "Bash", status: "done" });
    expect(tool.output).toEqual([
      { stream: "stdout", text: "ok 1\nok 2\n" },
      { stream: "stderr", text: "warn\n" },
    ]);
    expect(tool.result?.details).toMatchObject({ session_id: "s1" });
    expect(state.turnStatus).toBe("answered");
    expect(state.lastSeq).toBe(TURN.length);
  });

  it("is running between turn-start and turn-end, with a bubble that streams before model-end", () => {
    const state = applyAll(TURN.slice(0, 4));
    expect(state.turnStatus).toBe("running");
    expect(state.items[1]).toMatchObject({ kind: "assistant", text: "Running ", done: false });
  });

  it("ignores replayed sequence numbers: the whole replay applied twice gives the same state", () => {
    const once = applyAll(TURN);
    const twice = applyAll(TURN, once);
    expect(twice).toBe(once);
    // A reconnect replaying from an older seq than the newest applied changes nothing either.
    const partial = applyAll(TURN.slice(0, 9));
    const resumed = applyAll(TURN.slice(5), partial, 6);
    expect(resumed).toEqual(once);
  });

  it("keeps a text-less model turn out of the chat and takes a non-streamed answer from model-end", () => {
    const state = applyAll([
      { type: "turn-start", messageId: "m1", text: "hi" },
      { type: "model-end", turn: 1, text: "", toolCalls: [], finishReason: "tool-calls", durationMs: 1 },
      { type: "model-end", turn: 2, text: "Hello.", toolCalls: [], finishReason: "stop", durationMs: 1 },
    ]);
    expect(state.items.map((item) => item.kind)).toEqual(["user", "assistant"]);
    expect(state.items[1]).toMatchObject({ text: "Hello.", turn: 2, done: true });
  });

  it("marks failed calls as error, cancelled ones as cancelled, and running calls cancelled when the turn ends", () => {
    const state = applyAll([
      { type: "turn-start", messageId: "m1", text: "go" },
      { type: "tool-start", turn: 1, callId: "a", toolName: "Read", arguments: { path: "x" }, parallel: false },
      {
        type: "tool-end",
        turn: 1,
        callId: "a",
        toolName: "Read",
        arguments: { path: "x" },
        isError: true,
        text: "not found",
        details: { code: "not_found" },
        durationMs: 1,
      },
      { type: "tool-start", turn: 1, callId: "b", toolName: "Bash", arguments: { command: "sleep 9" }, parallel: false },
      {
        type: "tool-end",
        turn: 1,
        callId: "b",
        toolName: "Bash",
        arguments: {},
        isError: true,
        text: "Cancelled",
        details: { cancelled: true },
        durationMs: 1,
      },
      { type: "tool-start", turn: 1, callId: "w", toolName: "ProcessWait", arguments: { session_id: "s1" }, parallel: false },
      {
        type: "tool-end",
        turn: 1,
        callId: "w",
        toolName: "ProcessWait",
        arguments: {},
        isError: false,
        text: "",
        details: { status: "cancelled" },
        durationMs: 1,
      },
      { type: "tool-start", turn: 1, callId: "c", toolName: "Bash", arguments: { command: "sleep 9" }, parallel: false },
      { type: "turn-end", messageId: "m1", status: "aborted" },
    ]);
    const statuses = state.items.filter((item): item is ToolCallItem => item.kind === "tool").map((item) => [item.callId, item.status]);
    expect(statuses).toEqual([
      ["a", "error"],
      ["b", "cancelled"],
      ["w", "cancelled"],
      ["c", "cancelled"],
    ]);
    expect(state.turnStatus).toBe("aborted");
    expect(state.items.at(-1)).toMatchObject({ kind: "notice", level: "warning" });
  });

  it("keeps calls with the same id in different user turns apart", () => {
    const call = (messageId: string, command: string): ConversationEvent[] => [
      { type: "turn-start", messageId, text: command },
      { type: "tool-start", turn: 1, callId: "call_1", toolName: "Bash", arguments: { command }, parallel: false },
      { type: "tool-output", callId: "call_1", toolName: "Bash", update: { text: `${command}\n` } },
      { type: "turn-end", messageId, status: "answered" },
    ];
    const state = applyAll([...call("m1", "one"), ...call("m2", "two")]);
    const tools = state.items.filter((item): item is ToolCallItem => item.kind === "tool");
    expect(tools.map((tool) => tool.output.map((chunk) => chunk.text).join(""))).toEqual(["one\n", "two\n"]);
    expect(new Set(state.items.map((item) => item.key)).size).toBe(state.items.length);
  });

  it("shows an approval prompt until it is resolved, and clears prompts left at the end of a turn", () => {
    let state = applyAll([
      { type: "turn-start", messageId: "m1", text: "go" },
      { type: "approval-request", requestId: "r1", callId: "c1", toolName: "Bash", arguments: { command: "rm -rf build" }, reason: "shell" },
      { type: "approval-request", requestId: "r2", callId: "c2", toolName: "Write", arguments: { path: "a" } },
    ]);
    expect(state.approvals.map((approval) => approval.requestId)).toEqual(["r1", "r2"]);
    state = applyEvent(state, 4, { type: "approval-resolved", requestId: "r1", approved: true, by: "user" });
    expect(state.approvals.map((approval) => approval.requestId)).toEqual(["r2"]);
    state = applyEvent(state, 5, { type: "turn-end", messageId: "m1", status: "aborted" });
    expect(state.approvals).toEqual([]);
  });

  it("reports a model error and host notices in the chat", () => {
    const state = applyAll([
      { type: "notice", level: "info", message: "demo project at /tmp/demo" },
      { type: "turn-start", messageId: "m1", text: "go" },
      { type: "session-end", status: "model-error", turns: 1, toolCalls: 0, failedToolCalls: 0, durationMs: 1, finalText: "", error: "401 from the provider" },
      { type: "turn-end", messageId: "m1", status: "model-error" },
    ]);
    expect(state.items.filter((item) => item.kind === "notice").map((item) => (item.kind === "notice" ? [item.level, item.message] : []))).toEqual([
      ["info", "demo project at /tmp/demo"],
      ["error", "Model error: 401 from the provider"],
    ]);
    expect(state.turnStatus).toBe("model-error");
  });
});

describe("pageReducer", () => {
  it("confirms the page's own message on turn-start instead of adding it twice", () => {
    let state = pageReducer(createInitialViewState(), { type: "user-message-sent", messageId: "m1", text: "hello" });
    expect(state.items).toMatchObject([{ kind: "user", delivery: "pending" }]);
    state = pageReducer(state, {
      type: "gateway",
      message: { type: "event", conversationId: "c", seq: 1, event: { type: "turn-start", messageId: "m1", text: "hello" } },
    });
    expect(state.items).toMatchObject([{ kind: "user", messageId: "m1", text: "hello", delivery: "delivered" }]);
  });

  it("marks a pending message failed when the gateway refuses a command", () => {
    let state = pageReducer(createInitialViewState(), { type: "user-message-sent", messageId: "m1", text: "hello" });
    state = pageReducer(state, { type: "gateway", message: { type: "error", message: "no executing host is connected" } });
    expect(state.items).toMatchObject([{ delivery: "failed" }]);
    expect(state.gatewayError).toBe("no executing host is connected");
  });

  it("tracks the host from welcome and host-status, and starts over when the gateway's buffer is behind the page", () => {
    const host = { model: "demo", workdir: "/w" };
    let state = pageReducer(createInitialViewState(), { type: "gateway", message: { type: "welcome", protocol: 1, conversationId: "c", host, latestSeq: 0 } });
    expect(state.host).toEqual(host);
    state = TURN.reduce(
      (current, event, index) => pageReducer(current, { type: "gateway", message: { type: "event", conversationId: "c", seq: index + 1, event } }),
      state,
    );
    state = pageReducer(state, { type: "gateway", message: { type: "host-status", host: null } });
    expect(state.host).toBeNull();
    expect(state.items.length).toBe(4);
    const caughtUp = pageReducer(state, { type: "gateway", message: { type: "welcome", protocol: 1, conversationId: "c", host, latestSeq: TURN.length } });
    expect(caughtUp.items.length).toBe(4);
    const restarted = pageReducer(state, { type: "gateway", message: { type: "welcome", protocol: 1, conversationId: "c", host, latestSeq: 2 } });
    expect(restarted.items).toEqual([]);
    expect(restarted.lastSeq).toBe(0);
  });

  it("says so when the gateway's bounded buffer no longer holds the events after the page's last one", () => {
    const welcome = (firstSeq: number, latestSeq: number) =>
      ({ type: "gateway", message: { type: "welcome", protocol: 1, conversationId: "c", host: null, latestSeq, firstSeq } }) as const;
    expect(pageReducer(createInitialViewState(), welcome(1, 9)).items).toEqual([]);
    const gap = pageReducer(createInitialViewState(), welcome(5, 9));
    expect(gap.items).toMatchObject([{ kind: "notice", level: "warning", message: expect.stringContaining("Events 1-4") }]);
    expect(pageReducer(createInitialViewState(), welcome(10, 9)).items).toEqual([]);
  });
});
