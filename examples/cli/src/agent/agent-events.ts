/**
 * The events of one agent session. The live display renders them; `--json`
 * prints each one as a line of JSON. Every field is JSON-serialisable.
 */
import type { ModelToolCall, ToolUpdate } from "@agent-tools/core";
import type { HookAnswer, PolicyDecision } from "@agent-tools/core/policy";

/** The session started: which model, where, with which tools. */
export interface SessionStartEvent {
  type: "session-start";
  model: string;
  workdir: string;
  runtimeScope: string;
  tools: string[];
  prompt: string;
}

/** A model turn starts (1-based). */
export interface ModelStartEvent {
  type: "model-start";
  turn: number;
}

/** Streamed assistant text. */
export interface ModelTextDeltaEvent {
  type: "model-text-delta";
  turn: number;
  text: string;
}

/** The model answered: its text and the tool calls it asked for. */
export interface ModelEndEvent {
  type: "model-end";
  turn: number;
  text: string;
  toolCalls: ModelToolCall[];
  finishReason: string;
  usage?: { inputTokens?: number; outputTokens?: number };
  durationMs: number;
}

/** A tool call starts. `arguments` is the parsed object, or the raw text when it is not valid JSON. */
export interface ToolStartEvent {
  type: "tool-start";
  turn: number;
  callId: string;
  toolName: string;
  arguments: unknown;
  /** True when the call runs in parallel with other read-only calls. */
  parallel: boolean;
}

/** Output or progress streamed by a running tool. */
export interface ToolOutputEvent {
  type: "tool-output";
  callId: string;
  toolName: string;
  update: ToolUpdate;
}

/** A tool call ended. `text` is what goes back to the model. */
export interface ToolEndEvent {
  type: "tool-end";
  turn: number;
  callId: string;
  toolName: string;
  /** The call's arguments again, so a renderer needs no state. */
  arguments: unknown;
  isError: boolean;
  text: string;
  details: unknown;
  durationMs: number;
}

/**
 * What the registry's permission policy decides for a call, emitted just
 * before the call runs when the host asks for explanations (`--explain`).
 * Comes from `registry.policy.explain` with `runHooks: false`: PreToolUse
 * hooks are not run for it (they run once, with the call), so `hooks` holds
 * only what the policy reports without running them.
 */
export interface PolicyEvent {
  type: "policy";
  callId: string;
  toolName: string;
  decision: PolicyDecision;
  /** The rule as written, when a rule decided. */
  rule?: string;
  /** Where the decision came from: `managed`, `user`, `project`, `approval`, `mode`, `default`, `validation`, `registry`. */
  layer?: string;
  reason?: string;
  hooks: HookAnswer[];
}

/** The user was asked to approve a call. */
export interface ApprovalEvent {
  type: "approval";
  callId: string;
  toolName: string;
  approved: boolean;
  /** `flag` for --yes, `user` for an answer, `no-terminal` when nobody could be asked. */
  by: "flag" | "user" | "remembered" | "no-terminal";
}

/** How a session ended. */
export type SessionStatus = "answered" | "max-turns" | "model-error" | "aborted";

/** The session ended; the figures for the final summary. */
export interface SessionEndEvent {
  type: "session-end";
  status: SessionStatus;
  turns: number;
  toolCalls: number;
  failedToolCalls: number;
  durationMs: number;
  finalText: string;
  /** Tokens summed over the turns, when the model reported them. */
  usage?: { inputTokens: number; outputTokens: number };
  /** The error message for `model-error`. */
  error?: string;
}

/** A note from the host (e.g. where the demo project lives). */
export interface NoticeEvent {
  type: "notice";
  level: "info" | "warning" | "error";
  message: string;
}

/** Every event of a session. */
export type AgentEvent =
  | SessionStartEvent
  | ModelStartEvent
  | ModelTextDeltaEvent
  | ModelEndEvent
  | ToolStartEvent
  | ToolOutputEvent
  | ToolEndEvent
  | PolicyEvent
  | ApprovalEvent
  | SessionEndEvent
  | NoticeEvent;

/** Receives the events of a session. */
export type AgentEventListener = (event: AgentEvent) => void;
