/**
 * Turns of the scripted web demo model that show the page's own features:
 * Markdown (with the raw HTML and `javascript:` links a model might write,
 * which the page must show as text), a failing Edit, and a burst of Bash
 * output. See `web-demo-model.ts` for the words that pick them.
 */
import type { ModelRequest, ModelResponse, ModelToolCall } from "@agent-tools/core";
import { latestToolResults } from "@agent-tools/example-cli/demo/demo-script";

/** One turn's script: the next response given the conversation. */
export interface TurnScript {
  respond(request: ModelRequest): ModelResponse;
}

/** A final answer. */
export function answer(text: string): ModelResponse {
  return { text, toolCalls: [], finishReason: "stop" };
}

/** Text with tool calls. */
export function withCalls(text: string, toolCalls: ModelToolCall[]): ModelResponse {
  return { text, toolCalls, finishReason: "tool-calls" };
}

/** The "markdown" answer: formatting the page renders, and hostile HTML and links it must not. */
export const MARKDOWN_DEMO_TEXT = [
  "## Markdown in the page",
  "",
  "A list:",
  "",
  "- **bold** and *italic* and `inline code`",
  "- a [safe link](https://example.org/docs)",
  "- a [script link](javascript:alert(1)) that must not be clickable",
  "",
  "1. first",
  "2. second",
  "",
  "```js",
  "// a code block with a long line that scrolls inside its own box on a phone rather than widening the page at all",
  "function applyDiscount(amount, percent) {",
  "  return amount - (amount * percent) / 100;",
  "}",
  "```",
  "",
  'Raw HTML stays text: <img src=x onerror="window.__xss=1"> and <script>window.__xss=2</script> and <b onclick="window.__xss=3">bold?</b>',
].join("\n");

/** "markdown": one answer in Markdown. */
export function markdownScript(): TurnScript {
  return { respond: () => answer(MARKDOWN_DEMO_TEXT) };
}

/** The text the "broken edit" flow asks Edit to replace; the sample project does not contain it. */
export const BROKEN_EDIT_OLD_STRING = "return amount * 2; // not in the file";

/** "broken edit": an Edit whose old_string is not in the file, so it fails; then say so. */
export function brokenEditScript(): TurnScript {
  let asked = false;
  return {
    respond(request) {
      if (!asked) {
        asked = true;
        return withCalls("I'll try an edit whose text is not in the file, to show how a failed Edit looks.", [
          {
            id: "call_broken_edit",
            name: "Edit",
            arguments: JSON.stringify({ path: "src/pricing.js", old_string: BROKEN_EDIT_OLD_STRING, new_string: "return amount;" }),
          },
        ]);
      }
      const result = latestToolResults(request.messages).at(-1);
      return answer(result?.isError ? `The Edit failed, as planned: ${result.content.split("\n")[0]}` : "The Edit unexpectedly succeeded.");
    },
  };
}

/** The command of the "burst" flow: 60 numbered lines at once, then it ends. */
export const BURST_DEMO_COMMAND = 'for i in $(seq 1 60); do echo "burst line $i of 60"; done';

/** "burst": a Bash command that prints many lines and ends, then a short answer. */
export function burstScript(): TurnScript {
  let ran = false;
  return {
    respond(request) {
      if (!ran) {
        ran = true;
        return withCalls("Printing 60 lines:", [{ id: "call_burst", name: "Bash", arguments: JSON.stringify({ command: BURST_DEMO_COMMAND }) }]);
      }
      const result = latestToolResults(request.messages).at(-1);
      return answer(result?.isError ? "The command failed." : "The burst is done: **60 lines**.");
    },
  };
}
