/** The text a tool call returned: JSON pretty-printed, errors marked. */
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import { formatResultText, isMcpTool } from "../details/result-text.js";
import type { ToolResultView as Result } from "../view-state.js";

/** Props of {@link ToolResultView}. */
export interface ToolResultViewProps {
  toolName: string;
  result: Result;
  /** Shown instead of the result text (e.g. a task tool's headline). */
  text?: string;
}

/** A scrollable block; `data-format` is `json` or `text`. */
export function ToolResultView({ toolName, result, text }: ToolResultViewProps) {
  const shown = formatResultText(text ?? result.text, isMcpTool(toolName) ? result.details : undefined);
  return (
    <pre
      className={`tool-result format-${shown.format}${result.isError ? " is-error" : ""}`}
      data-testid={PAGE_TEST_IDS.toolResult}
      data-format={shown.format}
      data-error={result.isError}
    >
      {result.isError && <span className="error-label">error: </span>}
      {shown.text}
    </pre>
  );
}
