import type { ToolResult, ToolUpdate } from "../types.js";

/** Emitted when a call starts (after name resolution). */
export interface ToolCallStartEvent {
  type: "tool-call-start";
  callId: string;
  toolName: string;
  arguments: unknown;
  startedAt: number;
}

/** Emitted for each piece of streamed output or progress. */
export interface ToolOutputDeltaEvent {
  type: "tool-output-delta";
  callId: string;
  toolName: string;
  update: ToolUpdate;
}

/** Emitted when a call ends, successful or not. */
export interface ToolCallEndEvent {
  type: "tool-call-end";
  callId: string;
  toolName: string;
  result: ToolResult;
  durationMs: number;
}

/** Every event of a tool call, for hosts. */
export type ToolEvent = ToolCallStartEvent | ToolOutputDeltaEvent | ToolCallEndEvent;
