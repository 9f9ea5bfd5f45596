import { type ModelClient, type ModelMessage, toolResultText } from "@agent-tools/core";
import type { ChildToolbox } from "./child-toolbox.js";

/** What {@link runSubagentToolLoop} needs. */
export interface SubagentToolLoopOptions {
  readonly model: ModelClient;
  readonly toolbox: ChildToolbox;
  /** The context so far (system prompt first); the loop appends to it in place. */
  readonly messages: ModelMessage[];
  readonly signal: AbortSignal;
  /** Rounds (a model turn and its tool calls) before the run fails; counted from this loop's start. */
  readonly maxRounds: number;
  /** Called at every turn boundary, before the model is asked: messages to append first (e.g. the bus refresh). */
  beforeTurn?(): Promise<readonly ModelMessage[]>;
  /** Called after every completed round (its tool results appended): persistence. */
  afterRound?(progress: SubagentLoopProgress): Promise<void>;
}

/** Counts of a loop so far. */
export interface SubagentLoopProgress {
  /** Rounds completed (a model turn whose tool calls all ran). */
  readonly rounds: number;
  readonly toolCalls: number;
}

/** How a loop ended without throwing. */
export interface SubagentLoopResult extends SubagentLoopProgress {
  /** The model's final text (the turn that called no tool). */
  readonly finalText: string;
}

/** Thrown when a child needs more than `maxRounds` rounds. */
export class RoundLimitError extends Error {
  override readonly name = "RoundLimitError";
}

/**
 * The child's tool loop: ask the model, run its tool calls in order,
 * append the results, until a turn calls no tool. Throws when the model or
 * the signal does (the caller reports failed or cancelled with what was
 * persisted).
 */
export async function runSubagentToolLoop(options: SubagentToolLoopOptions): Promise<SubagentLoopResult> {
  const { model, toolbox, messages, signal } = options;
  let rounds = 0;
  let toolCalls = 0;
  for (;;) {
    signal.throwIfAborted();
    if (options.beforeTurn) messages.push(...(await options.beforeTurn()));
    if (rounds >= options.maxRounds) {
      throw new RoundLimitError(`The subagent did not finish within ${options.maxRounds} rounds of tool calls.`);
    }
    const response = await model.generate({ messages: [...messages], tools: toolbox.tools, signal });
    if (response.toolCalls.length === 0) {
      messages.push({ role: "assistant", content: response.text });
      return { finalText: response.text, rounds, toolCalls };
    }
    messages.push({ role: "assistant", content: response.text, toolCalls: response.toolCalls });
    for (const call of response.toolCalls) {
      const result = await toolbox.execute(call, signal);
      signal.throwIfAborted();
      messages.push({ role: "tool", toolCallId: call.id, toolName: call.name, content: toolResultText(result), ...(result.isError ? { isError: true } : {}) });
      toolCalls += 1;
    }
    rounds += 1;
    await options.afterRound?.({ rounds, toolCalls });
  }
}
