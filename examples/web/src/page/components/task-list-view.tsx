/** The body of a TaskCreate / TaskUpdate / TaskList card: the whole list with each task's status. */
import { PAGE_TEST_IDS } from "../../protocol/page-test-ids.js";
import { changedTaskId, taskViews } from "../details/task-view.js";
import type { ToolCallItem } from "../view-state.js";
import { ToolResultView } from "./tool-result-view.js";

/** Props of {@link TaskListView}. */
export interface TaskListViewProps {
  item: ToolCallItem;
}

const MARKS: Record<string, string> = { pending: "○", in_progress: "◐", completed: "●" };

/** Items carry `data-task-id` and `data-status`; the task the call changed is highlighted. */
export function TaskListView({ item }: TaskListViewProps) {
  if (!item.result) return null;
  const tasks = taskViews(item.result.details);
  if (!tasks) return <ToolResultView toolName={item.toolName} result={item.result} />;
  const changed = changedTaskId(item.result.details);
  return (
    <ul className="task-list" data-testid={PAGE_TEST_IDS.taskList}>
      {tasks.length === 0 && <li className="task-empty">no tasks</li>}
      {tasks.map((task) => (
        <li
          key={task.id}
          className={`task-item task-${task.status}${task.id === changed ? " task-changed" : ""}`}
          data-testid={PAGE_TEST_IDS.taskItem}
          data-task-id={task.id}
          data-status={task.status}
        >
          <span className="task-mark">{MARKS[task.status] ?? "?"}</span>
          <span className="task-id">#{task.id}</span>
          <span className="task-subject">{task.status === "in_progress" && task.activeForm ? task.activeForm : task.subject}</span>
          <span className="task-status">{task.status.replace("_", " ")}</span>
        </li>
      ))}
    </ul>
  );
}
