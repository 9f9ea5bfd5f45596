import type { ToolOutputDeltaEvent } from "../registry/events.js";
import type { ToolResult } from "../types.js";

/**
 * Runs a call and yields what the AI SDK reads as preliminary results: a
 * snapshot of the output so far after `tool-output-delta` updates (their
 * text joined, the latest `data` in `details.data`, `details.preliminary`
 * true), then the final result as the last value. Deltas that arrive while
 * the consumer is busy fold into one snapshot; the text is cumulative, so
 * nothing is lost.
 *
 * @example
 * const results = streamToolCallResults((onUpdate) => registry.executeToolCall(call, { onUpdate }));
 * for await (const result of results) render(result);
 */
export async function* streamToolCallResults(run: (onUpdate: (event: ToolOutputDeltaEvent) => void) => Promise<ToolResult>): AsyncGenerator<ToolResult> {
  let text = "";
  let data: unknown;
  let pending = false;
  let finished = false;
  let wake: (() => void) | undefined;
  const call = run((event) => {
    if (typeof event.update.text === "string") text += event.update.text;
    if (event.update.data !== undefined) data = event.update.data;
    pending = true;
    wake?.();
  });
  // Settling only wakes the loop; the final `await call` below rethrows a rejection.
  const settle = () => {
    finished = true;
    wake?.();
  };
  call.then(settle, settle);
  while (true) {
    if (pending) {
      pending = false;
      const details = data === undefined ? { preliminary: true } : { preliminary: true, data };
      yield { content: [{ type: "text", text }], details, isError: false };
      continue;
    }
    if (finished) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  yield await call;
}
