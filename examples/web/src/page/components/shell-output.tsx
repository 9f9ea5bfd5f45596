/**
 * The body of a Bash / ProcessWait / ProcessStop card: the output streamed
 * while it ran (or, when none streamed, the output in the result's details),
 * then the session's id, status and exit code (the session's newest, when a
 * later ProcessWait / ProcessStop reported how it went on).
 */
import { shellView } from "@agent-tools/example-cli/display/shell-view";
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import { type SessionState, footerFacts } from "../details/shell-sessions.js";
import type { OutputChunk, ToolCallItem } from "../view-state.js";
import { ToolResultView } from "./tool-result-view.js";
import { ToolStreamOutput } from "./tool-stream-output.js";

/** Props of {@link ShellOutput}. */
export interface ShellOutputProps {
  item: ToolCallItem;
  /** The newest state of this card's session that any shell call reported. */
  latestSession?: SessionState;
}

/** Output, then one line of facts (`data-session-id`, `data-shell-status`). */
export function ShellOutput({ item, latestSession }: ShellOutputProps) {
  const shell = item.result ? shellView(item.result.details) : undefined;
  const facts = shell ? footerFacts(shell, latestSession) : undefined;
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
          data-shell-status={facts?.status}
          data-error={item.result.isError}
        >
          {facts?.status && <span className={`shell-status shell-${facts.status}`}>{facts.status}</span>}
          {facts?.exitCode !== undefined && facts.exitCode !== null && <span>exit {facts.exitCode}</span>}
          {shell.sessionId && <span className="shell-session">session {shell.sessionId}</span>}
          {shell.durationMs !== undefined && <span>{(shell.durationMs / 1000).toFixed(1)} s</span>}
        </div>
      )}
    </>
  );
}
