/**
 * The executing host's conversations: each keeps its model message history
 * and runs at most one turn at a time. A turn is one `runAgentLoop` call with
 * the earlier turns as history; its events go out through `emit`.
 *
 * Invariants:
 * - A conversation has zero or one running turn. A `user-message` while one
 *   runs is not queued: the host answers with a warning `notice` event and
 *   the page may send it again after `turn-end`.
 * - Every `turn-start` is followed by exactly one `turn-end`, also when the
 *   loop fails or is stopped.
 * - Every `approval-request` is followed by exactly one `approval-resolved`:
 *   by the user's answer, or `cancelled` (declined) when the call's signal
 *   aborts (stop, or the host closing).
 */
import { randomUUID } from "node:crypto";
import type { ApprovalRequest, ModelClient, ModelMessage, ToolRegistry } from "@agent-tools/core";
import { type AgentEvent, runAgentLoop } from "@agent-tools/example-cli/agent";
import type { ConversationEvent, PageCommand, TurnEndEvent } from "../protocol/messages.js";
import type { WebApproval } from "./web-approval.js";
import type { WebTurnContext } from "./web-task-run.js";

/** How the executing host runs turns: its tools, its model and the limits of a turn. */
export interface TurnSettings {
  registry: ToolRegistry;
  model: ModelClient;
  /** Shown on the page (`host-hello`, `session-start` events), e.g. "scripted demo" or the model name. */
  modelName: string;
  systemPrompt?: string;
  /** Model turns per user message; default 40. */
  maxTurns?: number;
  /** The bridge whose `approval` the registry was built with; without it, calls that need approval are declined (the registry has no asker). */
  approval?: WebApproval;
}

/** What a conversation's turns need: the settings and where their events go. */
export interface ConversationTurnsOptions extends TurnSettings {
  /** Sends one event of a conversation (to the gateway, or queued while disconnected). */
  emit(conversationId: string, event: ConversationEvent): void;
}

interface RunningTurn {
  messageId: string;
  controller: AbortController;
  /** Open approval questions by request id: call with the user's answer. */
  approvals: Map<string, (approved: boolean) => void>;
  done: Promise<void>;
}

interface Conversation {
  history: ModelMessage[];
  turn?: RunningTurn;
}

/**
 * Runs the turns of every conversation.
 *
 * @example
 * const turns = new ConversationTurns({ registry, model, modelName: "demo", emit: (id, event) => send(id, event) });
 * turns.handle({ type: "user-message", conversationId: "c1", messageId: "m1", text: "fix" });
 */
export class ConversationTurns {
  private readonly options: ConversationTurnsOptions;
  private readonly conversations = new Map<string, Conversation>();

  constructor(options: ConversationTurnsOptions) {
    this.options = options;
  }

  /** Acts on a page command: start a turn, stop one, or answer an approval. */
  handle(command: PageCommand): void {
    const conversation = this.conversationOf(command.conversationId);
    switch (command.type) {
      case "user-message":
        if (conversation.turn) {
          this.options.emit(command.conversationId, {
            type: "notice",
            level: "warning",
            message: "A turn is still running in this conversation: wait for it to end (or press stop), then send your message again.",
          });
          return;
        }
        this.startTurn(command.conversationId, conversation, command.messageId, command.text);
        return;
      case "stop":
        conversation.turn?.controller.abort();
        return;
      case "approval-answer":
        // An answer to a request that was already resolved (cancelled, or answered in another tab) is dropped.
        conversation.turn?.approvals.get(command.requestId)?.(command.approved);
        return;
    }
  }

  /** Stops every running turn and waits for them to end. */
  async stopAll(): Promise<void> {
    const running = [...this.conversations.values()].flatMap((conversation) => (conversation.turn ? [conversation.turn] : []));
    for (const turn of running) turn.controller.abort();
    await Promise.all(running.map((turn) => turn.done));
  }

  private conversationOf(conversationId: string): Conversation {
    let conversation = this.conversations.get(conversationId);
    if (!conversation) this.conversations.set(conversationId, (conversation = { history: [] }));
    return conversation;
  }

  private startTurn(conversationId: string, conversation: Conversation, messageId: string, text: string): void {
    const { registry, model, emit } = this.options;
    const turn: RunningTurn = { messageId, controller: new AbortController(), approvals: new Map(), done: Promise.resolve() };
    conversation.turn = turn;
    emit(conversationId, { type: "turn-start", messageId, text });
    emit(conversationId, {
      type: "session-start",
      model: this.options.modelName,
      workdir: registry.workdir,
      runtimeScope: registry.runtimeScope,
      tools: registry.tools.map((tool) => tool.name),
      prompt: text,
    });
    const run = async (): Promise<TurnEndEvent["status"]> => {
      const result = await runAgentLoop({
        model,
        registry,
        prompt: text,
        history: conversation.history,
        systemPrompt: this.options.systemPrompt,
        maxTurns: this.options.maxTurns ?? 40,
        signal: turn.controller.signal,
        onEvent: (event: AgentEvent) => emit(conversationId, event),
        // The registry keys each conversation's task list by this (see web-task-run.ts).
        hostContext: { conversationId, messageId } satisfies WebTurnContext,
      });
      // The next turn continues from here (the system prompt is added afresh each turn).
      conversation.history = result.messages.slice(1);
      return result.summary.status;
    };
    const asker = (request: ApprovalRequest) => this.ask(conversationId, turn, request);
    turn.done = (this.options.approval ? this.options.approval.runInTurn(asker, run) : run())
      .catch((error: unknown) => {
        emit(conversationId, { type: "notice", level: "error", message: `The turn failed: ${error instanceof Error ? error.message : String(error)}` });
        return turn.controller.signal.aborted ? ("aborted" as const) : ("model-error" as const);
      })
      .then((status) => {
        conversation.turn = undefined;
        emit(conversationId, { type: "turn-end", messageId, status });
      });
  }

  private ask(conversationId: string, turn: RunningTurn, request: ApprovalRequest): Promise<boolean> {
    const { emit } = this.options;
    const requestId = randomUUID();
    emit(conversationId, { type: "approval-request", requestId, callId: request.callId, toolName: request.toolName, arguments: request.arguments });
    return new Promise<boolean>((resolve) => {
      const finish = (approved: boolean, by: "user" | "cancelled") => {
        if (!turn.approvals.delete(requestId)) return;
        request.signal.removeEventListener("abort", onAbort);
        emit(conversationId, { type: "approval-resolved", requestId, approved, by });
        resolve(approved);
      };
      const onAbort = () => finish(false, "cancelled");
      turn.approvals.set(requestId, (approved) => finish(approved, "user"));
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener("abort", onAbort, { once: true });
    });
  }
}
