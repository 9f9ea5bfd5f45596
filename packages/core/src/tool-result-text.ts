import type { ToolResult } from "./types.js";

/**
 * The text a result shows the model: its text blocks joined (images left
 * out). For tests, loop breakers and hosts that log results as text.
 *
 * @param separator between blocks; default a newline.
 *
 * @example
 * toolResultText(await registry.executeToolCall(call)); // "lines 1-200 of 950; ..."
 */
export function toolResultText(result: Pick<ToolResult, "content">, separator = "\n"): string {
  return result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join(separator);
}
