/**
 * One tool call as a card: name, argument summary and status in the head,
 * then a body chosen by the tool: shell output, an Edit diff, the task list,
 * or the result text (MCP tools' JSON pretty-printed). While the call runs,
 * its newest progress update (any tool's `onUpdate` data) shows under the head.
 */
import { SHELL_TOOL_NAMES } from "@agent-tools/example-cli/display/shell-view";
import { summarizeArguments } from "@agent-tools/example-cli/display/argument-summary";
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import type { SessionState } from "../details/shell-sessions.js";
import { TASK_TOOL_NAMES } from "../details/task-view.js";
import type { ToolCallItem } from "../view-state.js";
import { EditDiffView } from "./edit-diff-view.js";
import { ShellOutput } from "./shell-output.js";
import { TaskListView } from "./task-list-view.js";
import { ToolProgress } from "./tool-progress.js";
import { ToolResultView } from "./tool-result-view.js";
import { ToolStreamOutput } from "./tool-stream-output.js";

/** Props of {@link ToolCard}. */
export interface ToolCardProps {
  item: ToolCallItem;
  /** The newest state of the card's shell session, when it has one. */
  latestSession?: SessionState;
}

/** A card head has room for a longer argument summary than a terminal line. */
const ARGUMENT_SUMMARY_WIDTH = 160;

const STATUS_LABELS: Record<ToolCallItem["status"], string> = { running: "running…", done: "done", error: "failed", cancelled: "cancelled" };

/** The card; carries `data-tool-name`, `data-call-id` and `data-status`. */
export function ToolCard({ item, latestSession }: ToolCardProps) {
  const duration = item.result ? ` · ${formatDuration(item.result.durationMs)}` : "";
  return (
    <section
      className={`tool-card status-${item.status}`}
      data-testid={PAGE_TEST_IDS.toolCard}
      data-tool-name={item.toolName}
      data-call-id={item.callId}
      data-status={item.status}
    >
      <header className="tool-head">
        <span className="tool-name">{item.toolName}</span>
        <span className="tool-arguments" data-testid={PAGE_TEST_IDS.toolArguments}>
          {summarizeArguments(item.toolName, item.arguments, ARGUMENT_SUMMARY_WIDTH)}
        </span>
        <span className="tool-status">
          {STATUS_LABELS[item.status]}
          {duration}
        </span>
      </header>
      {item.status === "running" && <ToolProgress progress={item.progress} />}
      <ToolBody item={item} latestSession={latestSession} />
    </section>
  );
}

function ToolBody({ item, latestSession }: ToolCardProps) {
  if (SHELL_TOOL_NAMES.includes(item.toolName)) return <ShellOutput item={item} latestSession={latestSession} />;
  if (item.toolName === "Edit") return <EditDiffView item={item} />;
  if (TASK_TOOL_NAMES.includes(item.toolName)) return <TaskListView item={item} />;
  return (
    <>
      <ToolStreamOutput chunks={item.output} />
      {item.result && <ToolResultView toolName={item.toolName} result={item.result} />}
    </>
  );
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
