/**
 * The body of a Bash / ProcessWait / ProcessStop card: the output streamed
 * while it ran (or, when none streamed, the output in the result's details),
 * then the session's id, status and exit code.
 */
import { shellView } from "@agent-tools/example-cli/display/shell-view";
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import type { OutputChunk, ToolCallItem } from "../view-state.js";
import { ToolResultView } from "./tool-result-view.js";
import { ToolStreamOutput } from "./tool-stream-output.js";

/** Props of {@link ShellOutput}. */
export interface ShellOutputProps {
  item: ToolCallItem;
}

/** Output, then one line of facts (`data-session-id`, `data-shell-status`). */
export function ShellOutput({ item }: ShellOutputProps) {
  const shell = item.result ? shellView(item.result.details) : undefined;
  const chunks: OutputChunk[] = item.output.length > 0 ? item.output : (shell?.output ?? []);
  return (
    <>
      <ToolStreamOutput chunks={chunks} />
      {item.result && !shell && <ToolResultView toolName={item.toolName} result={item.result} />}
      {item.result && shell && (
        <div
          className={`shell-facts tool-result${item.result.isError ? " is-error" : ""}`}
          data-testid={PAGE_TEST_IDS.toolResult}
          data-session-id={shell.sessionId}
          data-shell-status={shell.status}
          data-error={item.result.isError}
        >
          {shell.status && <span className={`shell-status shell-${shell.status}`}>{shell.status}</span>}
          {shell.exitCode !== undefined && shell.exitCode !== null && <span>exit {shell.exitCode}</span>}
          {shell.sessionId && <span className="shell-session">session {shell.sessionId}</span>}
          {shell.durationMs !== undefined && <span>{(shell.durationMs / 1000).toFixed(1)} s</span>}
        </div>
      )}
    </>
  );
}
