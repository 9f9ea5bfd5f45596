/**
 * Short, human summaries of tool results, read from each tool's `details`
 * (what a UI is meant to show) with the result text as a fallback.
 */
import type { ToolEndEvent } from "../agent/agent-events.js";
import { shellView } from "./shell-view.js";
import { summarizeSubagentBatch } from "./subagent-display.js";

type Details = Record<string, unknown>;

/** A task as the task tools report it in `details.tasks`. */
export interface TaskView {
  id: string;
  subject: string;
  status: string;
  activeForm?: string;
}

/**
 * One line that says what a successful call did, e.g. `lines 1-20 of 20`,
 * `3 matches in 1 file`, `1 replacement (matchStrategy: line-endings)`.
 */
export function summarizeResult(event: ToolEndEvent): string {
  const details = asRecord(event.details);
  const text = event.text;
  switch (event.toolName) {
    case "Read": {
      const start = num(details.startLine);
      const count = num(details.numLines);
      const total = num(details.totalLines);
      if (start !== undefined && count !== undefined) {
        const reused = details.reusedExisting === true ? " (unchanged since last Read)" : "";
        // A large file's first pages do not count its lines (totalLinesKnown: false).
        const of = total === undefined ? " (more follow)" : ` of ${total}`;
        return count === 0 ? `empty file${reused}` : `lines ${start}-${start + count - 1}${of}${reused}`;
      }
      break;
    }
    case "Edit": {
      const replacements = num(details.replacements) ?? 1;
      const strategy = typeof details.matchStrategy === "string" ? details.matchStrategy : "exact";
      return `${plural(replacements, "replacement")} · matchStrategy: ${strategy}`;
    }
    case "Write": {
      const lines = num(details.totalLines);
      const verb = details.existedBefore === true ? "updated" : details.existedBefore === false ? "created" : "written";
      return lines === undefined ? verb : `${verb} · ${plural(lines, "line")}`;
    }
    case "Glob":
    case "List": {
      const total =
        num(details.totalMatches) ??
        num(details.total) ??
        num(details.totalCount) ??
        num(details.count) ??
        arrayLength(details.paths) ??
        arrayLength(details.entries) ??
        arrayLength(details.files);
      if (total !== undefined) return plural(total, event.toolName === "Glob" ? "file" : "entry", event.toolName === "Glob" ? "files" : "entries");
      break;
    }
    case "Grep": {
      const matches = num(details.matchCount);
      const files = num(details.fileCount);
      if (matches !== undefined && files !== undefined) return `${plural(matches, "match", "matches")} in ${plural(files, "file")}`;
      if (files !== undefined) return plural(files, "file");
      break;
    }
    case "Bash":
    case "ProcessWait":
    case "ProcessStop": {
      const shell = shellView(event.details);
      if (shell?.status) {
        const parts = [shell.status];
        if (shell.exitCode !== undefined && shell.exitCode !== null) parts.push(`exit ${shell.exitCode}`);
        if (shell.status === "running" && shell.sessionId) parts.push(`session ${shell.sessionId}`);
        return parts.join(" · ");
      }
      break;
    }
    case "TaskCreate":
    case "TaskUpdate":
    case "TaskList": {
      const tasks = taskViews(event.details);
      if (tasks) {
        const id = typeof details.taskId === "string" || typeof details.taskId === "number" ? String(details.taskId) : undefined;
        const task = tasks.find((item) => item.id === id);
        if (event.toolName === "TaskCreate") return `task #${task?.id ?? tasks.at(-1)?.id ?? "?"} created`;
        if (event.toolName === "TaskUpdate" && task) return `task #${task.id} is ${task.status.replace("_", " ")}`;
        return plural(tasks.length, "task");
      }
      break;
    }
    case "Agent": {
      const summary = summarizeSubagentBatch(event.details);
      if (summary !== undefined) return summary;
      break;
    }
    default:
      break;
  }
  return firstLine(text);
}

/** The task list carried by a task tool's details, if any. */
export function taskViews(details: unknown): TaskView[] | undefined {
  const tasks = asRecord(details).tasks;
  if (!Array.isArray(tasks)) return undefined;
  return tasks
    .filter((task): task is Details => task !== null && typeof task === "object")
    .map((task) => ({
      id: String(task.id ?? "?"),
      subject: String(task.subject ?? ""),
      status: String(task.status ?? "pending"),
      activeForm: typeof task.activeForm === "string" ? task.activeForm : undefined,
    }));
}

/** The first non-empty line of `text`. */
export function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .find((line) => line.trim() !== "")
      ?.trim() ?? ""
  );
}

function asRecord(value: unknown): Details {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Details) : {};
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function arrayLength(value: unknown): number | undefined {
  return Array.isArray(value) ? value.length : undefined;
}

function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
