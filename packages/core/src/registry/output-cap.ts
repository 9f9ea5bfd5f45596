import type { ToolContent } from "../types.js";

/** Default cap of a result's text, in characters. */
export const DEFAULT_MAX_OUTPUT_CHARS = 240_000;

/**
 * Caps the text of a result. Text beyond `maxChars` is cut and a paging hint
 * tells the model how to see the rest. Images are kept.
 */
export function capOutput(content: ToolContent[], maxChars: number): { content: ToolContent[]; truncated?: { shownChars: number; totalChars: number } } {
  let total = 0;
  for (const block of content) if (block.type === "text") total += block.text.length;
  if (total <= maxChars) return { content };
  let remaining = maxChars;
  const out: ToolContent[] = [];
  for (const block of content) {
    if (block.type !== "text") {
      out.push(block);
      continue;
    }
    if (remaining <= 0) continue;
    const text = block.text.length <= remaining ? block.text : safeSlice(block.text, remaining);
    remaining -= text.length;
    out.push({ type: "text", text });
  }
  const shown = maxChars - Math.max(0, remaining);
  out.push({
    type: "text",
    text: `\n[Output truncated: showing the first ${shown} of ${total} characters. Narrow the request to see the rest: a smaller range (start_line/limit, offset/head_limit, max_results), a more specific path or pattern, or redirect long output to a file and Read it in pages.]`,
  });
  return { content: out, truncated: { shownChars: shown, totalChars: total } };
}

function safeSlice(text: string, length: number): string {
  let end = length;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1; // do not split a surrogate pair
  return text.slice(0, end);
}
