// Scripted model turns for the AI SDK matrix, written once and rendered in each
// language-model spec version's shapes (V2 for AI SDK 5, V3/V4 for 6 and 7).

/** One model turn: tool calls, or a final text. */
export type ScriptedTurn = { toolCalls: { id: string; name: string; input: unknown }[] } | { text: string };

/** The spec version of a mock language model. */
export type SpecVersion = "v2" | "v3";

const finish = (spec: SpecVersion, reason: "stop" | "tool-calls") => (spec === "v2" ? reason : { unified: reason, raw: reason });
const usage = (spec: SpecVersion) =>
  spec === "v2"
    ? { inputTokens: 1, outputTokens: 1, totalTokens: 2 }
    : { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

const toolCallParts = (turn: ScriptedTurn) =>
  "toolCalls" in turn ? turn.toolCalls.map((call) => ({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) })) : [];

/** A `doGenerate` result for a turn. */
export function generateResult(spec: SpecVersion, turn: ScriptedTurn): any {
  const content = "text" in turn ? [{ type: "text", text: turn.text }] : toolCallParts(turn);
  return { content, finishReason: finish(spec, "text" in turn ? "stop" : "tool-calls"), usage: usage(spec), warnings: [] };
}

/** A `doStream` result for a turn: the text in two deltas, or the tool calls. */
export function streamResult(spec: SpecVersion, turn: ScriptedTurn): any {
  const parts: unknown[] = [{ type: "stream-start", warnings: [] }];
  if ("text" in turn) {
    const half = Math.ceil(turn.text.length / 2);
    parts.push(
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: turn.text.slice(0, half) },
      { type: "text-delta", id: "t", delta: turn.text.slice(half) },
      { type: "text-end", id: "t" },
    );
  } else {
    parts.push(...toolCallParts(turn));
  }
  parts.push({ type: "finish", finishReason: finish(spec, "text" in turn ? "stop" : "tool-calls"), usage: usage(spec) });
  const stream = new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  return { stream };
}
