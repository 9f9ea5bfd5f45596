/**
 * The agent loop: prompt -> model -> tool calls through the registry ->
 * results back to the model -> ... until the model answers without calling a
 * tool, or the turn limit is reached.
 */
import { isAbortError } from "@agent-tools/core";
import type { ModelClient, ModelMessage, ModelToolCall, ToolRegistry, ToolResult } from "@agent-tools/core";
import type { AgentEventListener, NoticeEvent, PolicyEvent, SessionEndEvent, SessionStatus } from "./agent-events.js";

/** Options of {@link runAgentLoop}. */
export interface AgentLoopOptions {
  model: ModelClient;
  registry: ToolRegistry;
  /** The user's request. */
  prompt: string;
  /**
   * Earlier turns of the same conversation (user, assistant and tool
   * messages, no system message), sent between the system prompt and
   * `prompt`; e.g. the `messages` of the previous result without its first
   * (system) message. A chat host passes it to continue a conversation.
   */
  history?: readonly ModelMessage[];
  /** The system prompt; see {@link defaultSystemPrompt}. */
  systemPrompt?: string;
  /** Stop after this many model turns. */
  maxTurns: number;
  /** Aborts the model request and every running tool call. */
  signal?: AbortSignal;
  onEvent: AgentEventListener;
  /**
   * Called after each turn's tool results: text to append as a user message
   * (`""` for none), e.g. the subagents' message bus delta for the parent.
   */
  afterToolResults?: () => Promise<string>;
  /**
   * Passed to every tool call as `hostContext`, e.g. the conversation and
   * turn a registry serving several conversations keys its task lists by.
   */
  hostContext?: unknown;
  /**
   * Before each tool call runs, ask `registry.policy.explain` (without
   * running hooks, so they run once, with the call) and emit a `policy` event
   * right after the call's `tool-start`.
   */
  explainCalls?: boolean;
}

/** What a session produced: the summary event plus the whole conversation. */
export interface AgentLoopResult {
  summary: SessionEndEvent;
  messages: ModelMessage[];
}

/**
 * Runs one agent session. Never throws for a model or tool failure: a failing
 * model ends the session with status `model-error`; a failing tool call goes
 * back to the model as an error result.
 *
 * @example
 * const { summary } = await runAgentLoop({ model, registry, prompt: "Fix the failing test", maxTurns: 20, onEvent: console.log });
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { model, registry, onEvent } = options;
  const signal = options.signal ?? new AbortController().signal;
  const startedAt = Date.now();
  const messages: ModelMessage[] = [
    { role: "system", content: options.systemPrompt ?? defaultSystemPrompt(registry) },
    ...(options.history ?? []),
    { role: "user", content: options.prompt },
  ];
  let turns = 0;
  let toolCalls = 0;
  let failedToolCalls = 0;
  let finalText = "";
  let status: SessionStatus = "max-turns";
  let error: string | undefined;
  let usage: { inputTokens: number; outputTokens: number } | undefined;

  try {
    while (turns < options.maxTurns) {
      if (signal.aborted) {
        status = "aborted";
        break;
      }
      turns += 1;
      const turn = turns;
      onEvent({ type: "model-start", turn });
      const modelStartedAt = Date.now();
      const response = await model.generate({
        messages,
        tools: registry.tools,
        signal,
        onTextDelta: (text) => onEvent({ type: "model-text-delta", turn, text }),
      });
      onEvent({
        type: "model-end",
        turn,
        text: response.text,
        toolCalls: response.toolCalls,
        finishReason: response.finishReason,
        usage: response.usage,
        durationMs: Date.now() - modelStartedAt,
      });
      if (response.usage) {
        usage ??= { inputTokens: 0, outputTokens: 0 };
        usage.inputTokens += response.usage.inputTokens ?? 0;
        usage.outputTokens += response.usage.outputTokens ?? 0;
      }
      messages.push({ role: "assistant", content: response.text, toolCalls: response.toolCalls.length ? response.toolCalls : undefined });
      if (response.toolCalls.length === 0) {
        finalText = response.text;
        status = "answered";
        break;
      }
      for (const batch of planBatches(registry, response.toolCalls)) {
        const parallel = batch.length > 1;
        const results = await Promise.all(batch.map((call) => runToolCall(options, call, turn, parallel, signal)));
        batch.forEach((call, index) => {
          const result = results[index]!;
          toolCalls += 1;
          if (result.isError) failedToolCalls += 1;
          messages.push({ role: "tool", toolCallId: call.id, toolName: call.name, content: resultText(result), isError: result.isError });
        });
      }
      const tail = await options.afterToolResults?.();
      if (tail) messages.push({ role: "user", content: tail });
    }
  } catch (caught) {
    if (signal.aborted || isAbortError(caught)) {
      status = "aborted";
    } else {
      status = "model-error";
      error = caught instanceof Error ? caught.message : String(caught);
    }
  }
  if (status !== "answered" && signal.aborted) status = "aborted";
  const summary: SessionEndEvent = {
    type: "session-end",
    status,
    turns,
    toolCalls,
    failedToolCalls,
    durationMs: Date.now() - startedAt,
    finalText,
    usage,
    error,
  };
  onEvent(summary);
  return { summary, messages };
}

/**
 * Splits the calls of one turn into batches that keep the model's order:
 * consecutive read-only calls (per the registry's metadata) form one parallel
 * batch; every other call runs alone.
 */
export function planBatches(registry: ToolRegistry, calls: readonly ModelToolCall[]): ModelToolCall[][] {
  const batches: ModelToolCall[][] = [];
  let readOnly: ModelToolCall[] = [];
  for (const call of calls) {
    const name = registry.resolveToolName(call.name);
    if (name !== undefined && registry.metadataByName[name]?.isReadOnly === true) {
      readOnly.push(call);
      continue;
    }
    if (readOnly.length) batches.push(readOnly);
    readOnly = [];
    batches.push([call]);
  }
  if (readOnly.length) batches.push(readOnly);
  return batches;
}

async function runToolCall(options: AgentLoopOptions, call: ModelToolCall, turn: number, parallel: boolean, signal: AbortSignal): Promise<ToolResult> {
  const { registry, onEvent } = options;
  const args = parseForDisplay(call.arguments);
  const toolName = registry.resolveToolName(call.name) ?? call.name;
  // The explanation is asked first so that its line follows its call's line even when calls run in parallel.
  const explanation = options.explainCalls ? await explainCall(registry, call, toolName, signal) : undefined;
  onEvent({ type: "tool-start", turn, callId: call.id, toolName, arguments: args, parallel });
  if (explanation !== undefined) onEvent(explanation);
  const startedAt = Date.now();
  // The raw JSON text goes to the registry: malformed arguments come back as an error result for the model.
  const result = await registry.executeToolCall(
    { id: call.id, name: call.name, arguments: call.arguments },
    {
      signal,
      hostContext: options.hostContext,
      onUpdate: (event) => onEvent({ type: "tool-output", callId: call.id, toolName, update: event.update }),
    },
  );
  onEvent({
    type: "tool-end",
    turn,
    callId: call.id,
    toolName,
    arguments: args,
    isError: result.isError,
    text: resultText(result),
    details: result.details,
    durationMs: Date.now() - startedAt,
  });
  return result;
}

/**
 * The policy's explanation of a call as a `policy` event, or a warning
 * notice when it cannot be explained (the call itself still goes to the
 * registry, which decides for real).
 */
async function explainCall(registry: ToolRegistry, call: ModelToolCall, toolName: string, signal: AbortSignal): Promise<PolicyEvent | NoticeEvent> {
  try {
    const verdict = await registry.policy.explain({ id: call.id, name: call.name, arguments: call.arguments }, { runHooks: false, signal });
    return {
      type: "policy",
      callId: call.id,
      toolName: verdict.toolName ?? toolName,
      decision: verdict.decision,
      ...(verdict.rule === undefined ? {} : { rule: verdict.rule }),
      ...(verdict.layer === undefined ? {} : { layer: verdict.layer }),
      ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
      hooks: [...verdict.hooks],
    };
  } catch (error) {
    return { type: "notice", level: "warning", message: `Could not explain the ${toolName} call ${call.id}: ${(error as Error).message}` };
  }
}

/** The text the model sees of a result; image blocks are named, not inlined, since chat text cannot carry them. */
export function resultText(result: ToolResult): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`))
    .join("\n");
}

function parseForDisplay(raw: string): unknown {
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The system prompt the CLI sends: where the agent works and how to use the tools well. */
export function defaultSystemPrompt(registry: ToolRegistry): string {
  const roots = registry.paths.roots();
  const lines = [
    "You are a careful coding agent working in the user's project through tools.",
    `Working directory: ${registry.workdir}. Use workspace-relative paths.`,
    ...(roots.length
      ? ["Extra directories:", ...roots.map((root) => `- root://${root.alias}/ (${root.access === "write" ? "read/write" : "read-only"})`)]
      : []),
    "Find files with Glob and Grep, Read before you Edit, and verify changes by running the project's tests with Bash.",
    "When Bash reports a running session, follow it with ProcessWait instead of sleeping.",
    "Plan multi-step work with TaskCreate / TaskUpdate when those tools are available.",
    "Finish with a short answer that says what you changed and how you checked it.",
  ];
  return lines.join("\n");
}
