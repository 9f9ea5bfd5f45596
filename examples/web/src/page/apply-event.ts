/**
 * The reducer of the conversation's event stream: one numbered event in, the
 * next view state out. Pure; an event whose sequence number was already
 * applied (a replay after a reconnect) returns the state unchanged.
 */
import type { ConversationEvent } from "../protocol/messages.js";
import type { AssistantMessageItem, ChatItem, OutputChunk, ToolCallItem, ToolCardStatus, ViewState } from "./view-state.js";

/**
 * Applies event number `seq` to `state`. Events at or below `state.lastSeq`
 * are ignored (the same object comes back), so replaying a buffer twice
 * renders the same chat.
 *
 * @example
 * let state = createInitialViewState();
 * state = applyEvent(state, 1, { type: "turn-start", messageId: "m1", text: "hi" });
 * state = applyEvent(state, 1, { type: "turn-start", messageId: "m1", text: "hi" }); // ignored
 */
export function applyEvent(state: ViewState, seq: number, event: ConversationEvent): ViewState {
  if (seq <= state.lastSeq) return state;
  const next = reduce({ ...state, lastSeq: seq }, seq, event);
  return next;
}

function reduce(state: ViewState, seq: number, event: ConversationEvent): ViewState {
  switch (event.type) {
    case "turn-start": {
      const index = state.items.findIndex((item) => item.kind === "user" && item.messageId === event.messageId);
      const items =
        index >= 0
          ? replaceAt(state.items, index, { ...(state.items[index] as ChatItem & { kind: "user" }), delivery: "delivered" })
          : [
              ...state.items,
              { kind: "user" as const, key: `user:${event.messageId}`, messageId: event.messageId, text: event.text, delivery: "delivered" as const },
            ];
      return { ...state, items, turnStatus: "running", currentMessageId: event.messageId, gatewayError: undefined };
    }
    case "turn-end": {
      let items = state.items.map((item) => (item.kind === "tool" && item.status === "running" ? { ...item, status: "cancelled" as const } : item));
      if (event.status === "aborted") items = [...items, notice(seq, "warning", "Stopped: the turn was aborted.")];
      if (event.status === "max-turns") items = [...items, notice(seq, "warning", "The turn ended after the most model turns allowed.")];
      return { ...state, items, turnStatus: event.status, approvals: [] };
    }
    case "session-end":
      if (event.status === "model-error") return { ...state, items: [...state.items, notice(seq, "error", `Model error: ${event.error ?? "unknown error"}`)] };
      return state;
    case "notice":
      return { ...state, items: [...state.items, notice(seq, event.level, event.message)] };
    case "model-text-delta":
      return event.text === "" ? state : updateAssistant(state, event.turn, (item) => ({ ...item, text: item.text + event.text }));
    case "model-end": {
      const exists = findAssistant(state, event.turn) >= 0;
      if (!exists && event.text.trim() === "") return state;
      return updateAssistant(state, event.turn, (item) => ({ ...item, text: item.text === "" ? event.text : item.text, done: true }));
    }
    case "tool-start": {
      const item: ToolCallItem = {
        kind: "tool",
        key: `tool:${state.currentMessageId ?? "-"}:${event.callId}`,
        callId: event.callId,
        toolName: event.toolName,
        arguments: event.arguments,
        status: "running",
        output: [],
      };
      return upsertTool(state, event.callId, () => item);
    }
    case "tool-output":
      return upsertTool(state, event.callId, (item) => ({
        ...(item ?? newTool(state, event.callId, event.toolName, undefined)),
        output:
          typeof event.update.text === "string" && event.update.text !== ""
            ? appendChunk(item?.output ?? [], event.update.stream, event.update.text)
            : (item?.output ?? []),
        progress: event.update.data !== undefined ? event.update.data : item?.progress,
      }));
    case "tool-end":
      return upsertTool(state, event.callId, (item) => ({
        ...(item ?? newTool(state, event.callId, event.toolName, event.arguments)),
        arguments: event.arguments,
        status: endStatus(event.isError, event.details),
        result: { isError: event.isError, text: event.text, details: event.details, durationMs: event.durationMs },
      }));
    case "approval-request":
      if (state.approvals.some((approval) => approval.requestId === event.requestId)) return state;
      return {
        ...state,
        approvals: [
          ...state.approvals,
          { requestId: event.requestId, callId: event.callId, toolName: event.toolName, arguments: event.arguments, reason: event.reason },
        ],
      };
    case "approval-resolved":
      return { ...state, approvals: state.approvals.filter((approval) => approval.requestId !== event.requestId) };
    default:
      // session-start, model-start and the CLI's `approval` add nothing the page shows.
      return state;
  }
}

/**
 * A call the executor cancelled reports `details.cancelled`; a shell call
 * (ProcessWait, ...) that a stop ended reports `details.status: "cancelled"`
 * without failing. Other failures are errors.
 */
function endStatus(isError: boolean, details: unknown): ToolCardStatus {
  const record = details !== null && typeof details === "object" ? (details as { cancelled?: unknown; status?: unknown }) : {};
  if (record.cancelled === true || record.status === "cancelled") return "cancelled";
  return isError ? "error" : "done";
}

function notice(seq: number, level: "info" | "warning" | "error", message: string): ChatItem {
  return { kind: "notice", key: `notice:${seq}`, level, message };
}

function newTool(state: ViewState, callId: string, toolName: string, args: unknown): ToolCallItem {
  return { kind: "tool", key: `tool:${state.currentMessageId ?? "-"}:${callId}`, callId, toolName, arguments: args, status: "running", output: [] };
}

/** Call ids are the model's and may repeat across user turns, so the index is per user turn. */
function upsertTool(state: ViewState, callId: string, update: (item: ToolCallItem | undefined) => ToolCallItem): ViewState {
  const indexKey = `${state.currentMessageId ?? "-"}:${callId}`;
  const index = state.toolIndex[indexKey];
  if (index === undefined) {
    return { ...state, items: [...state.items, update(undefined)], toolIndex: { ...state.toolIndex, [indexKey]: state.items.length } };
  }
  return { ...state, items: replaceAt(state.items, index, update(state.items[index] as ToolCallItem)) };
}

function appendChunk(output: OutputChunk[], stream: "stdout" | "stderr" | undefined, text: string): OutputChunk[] {
  const kind = stream ?? "text";
  const last = output[output.length - 1];
  if (last && last.stream === kind) return [...output.slice(0, -1), { stream: kind, text: last.text + text }];
  return [...output, { stream: kind, text }];
}

function assistantKey(messageId: string | undefined, turn: number): string {
  return `assistant:${messageId ?? "-"}:${turn}`;
}

function findAssistant(state: ViewState, turn: number): number {
  const key = assistantKey(state.currentMessageId, turn);
  for (let index = state.items.length - 1; index >= 0; index -= 1) if (state.items[index]!.key === key) return index;
  return -1;
}

/** Updates the bubble of model turn `turn` in the current user turn, creating it when missing. */
function updateAssistant(state: ViewState, turn: number, update: (item: AssistantMessageItem) => AssistantMessageItem): ViewState {
  const index = findAssistant(state, turn);
  if (index >= 0) return { ...state, items: replaceAt(state.items, index, update(state.items[index] as AssistantMessageItem)) };
  const created: AssistantMessageItem = {
    kind: "assistant",
    key: assistantKey(state.currentMessageId, turn),
    messageId: state.currentMessageId ?? "",
    turn,
    text: "",
    done: false,
  };
  return { ...state, items: [...state.items, update(created)] };
}

function replaceAt<T>(items: readonly T[], index: number, item: T): T[] {
  const copy = items.slice();
  copy[index] = item;
  return copy;
}
