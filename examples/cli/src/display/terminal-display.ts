/**
 * The live display: renders the events of a session for a person at a
 * terminal. Tool calls appear as they start, shell output streams in, Edit
 * shows a coloured diff, a spinner runs while the model or a tool works, and
 * the session ends with a summary line.
 */
import { createColors } from "./colors.js";
import type { Colors } from "./colors.js";
import type { AgentEvent, ToolEndEvent } from "../agent/agent-events.js";
import { summarizeArguments, truncate } from "./argument-summary.js";
import { renderEditDiff, renderUnifiedDiff } from "./edit-diff.js";
import { formatPolicyLine } from "./policy-line.js";
import { type TaskView, summarizeResult, taskViews } from "./result-summary.js";
import { shellView } from "./shell-view.js";
import { Spinner } from "./spinner.js";
import { type SubagentLineView, subagentBatchAgents, subagentCard, subagentCardState, subagentLine } from "./subagent-display.js";

/** Options of {@link TerminalDisplay}. */
export interface TerminalDisplayOptions {
  /** Where to write; default `process.stdout`. */
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Colours on or off; default: on for a TTY unless NO_COLOR is set (FORCE_COLOR forces them). */
  colors?: boolean;
  /** Spinner on or off; default: on for a TTY. */
  spinner?: boolean;
}

const SHELL_TOOLS = new Set(["Bash", "ProcessWait", "ProcessStop", "ManagedProcess"]);
const TASK_TOOLS = new Set(["TaskCreate", "TaskUpdate", "TaskList"]);
const MAX_FALLBACK_OUTPUT_LINES = 20;
const MAX_NEW_FILE_LINES = 8;

/**
 * Renders agent events as text.
 *
 * @example
 * const display = new TerminalDisplay();
 * await runAgentLoop({ ..., onEvent: (event) => display.handle(event) });
 */
export class TerminalDisplay {
  private readonly stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  private readonly c: Colors;
  private readonly spinner: Spinner;
  /** Streamed output per call: the unfinished last line, and whether anything was shown. */
  private readonly outputs = new Map<string, { partial: string; shown: boolean }>();
  private readonly running = new Map<string, string>();
  private readonly parallelCalls = new Set<string>();
  /** The state last shown per subagent card (`<callId>:<index>`). */
  private readonly cardStates = new Map<string, string>();
  private textStreamedThisTurn = false;
  /** The latest task list, shown once a run of task calls ends. */
  private pendingTasks: TaskView[] | undefined;
  /** True when the last thing shown was a tool line (assistant text then gets a blank line first). */
  private lastWasTool = false;
  private atLineStart = true;

  constructor(options: TerminalDisplayOptions = {}) {
    this.stream = options.stream ?? process.stdout;
    const tty = this.stream.isTTY === true;
    const colors =
      options.colors ?? (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0" ? true : tty && process.env.NO_COLOR === undefined);
    this.c = createColors(colors);
    this.spinner = new Spinner(this.stream, this.c, options.spinner ?? tty);
  }

  /** Renders one event. */
  handle(event: AgentEvent): void {
    // A run of task calls shows one checklist, after its last call.
    const taskEvent = (event.type === "tool-start" || event.type === "tool-end" || event.type === "policy") && TASK_TOOLS.has(event.toolName);
    if (!taskEvent && event.type !== "tool-output") this.flushTasks();
    this.render(event);
    if (event.type !== "model-start") this.lastWasTool = event.type.startsWith("tool-") || event.type === "approval" || event.type === "policy";
  }

  private render(event: AgentEvent): void {
    switch (event.type) {
      case "session-start":
        this.line(
          `${this.c.bold("agent-tools")} ${this.c.dim("·")} ${event.model} ${this.c.dim(`· ${event.workdir} · scope ${event.runtimeScope} · ${event.tools.length} tools`)}`,
        );
        this.line(`${this.c.bold(this.c.blue("›"))} ${event.prompt}`);
        this.line("");
        break;
      case "notice": {
        const colour = event.level === "error" ? this.c.red : event.level === "warning" ? this.c.yellow : this.c.dim;
        this.line(colour(event.message));
        break;
      }
      case "model-start":
        this.textStreamedThisTurn = false;
        this.spinner.start("thinking");
        break;
      case "model-text-delta":
        // The spinner would erase a half-written line: stop it while text streams.
        if (!this.textStreamedThisTurn) {
          this.spinner.stop();
          this.separateFromTools();
        }
        this.textStreamedThisTurn = true;
        this.write(event.text);
        break;
      case "model-end":
        if (this.textStreamedThisTurn) this.endLine();
        else if (event.text.trim()) {
          this.separateFromTools();
          this.line(event.text.trim());
        }
        if (event.text.trim() && event.toolCalls.length) this.line("");
        this.spinner.stop();
        break;
      case "tool-start":
        this.running.set(event.callId, event.toolName);
        if (event.parallel) this.parallelCalls.add(event.callId);
        this.line(
          `${this.c.cyan("▸")} ${this.c.bold(event.toolName)} ${this.c.dim(summarizeArguments(event.toolName, event.arguments, this.width() - event.toolName.length - 4))}`,
        );
        this.spinner.start(`running ${event.toolName}`);
        break;
      case "tool-output":
        if (typeof event.update.text === "string" && event.update.text !== "") this.streamOutput(event.callId, event.update.text, event.update.stream);
        this.renderSubagentCard(event.callId, event.update.data);
        this.showProgress(event.callId, event.update.data);
        break;
      case "tool-end":
        this.running.delete(event.callId);
        this.flushOutput(event.callId);
        this.renderToolEnd(event);
        this.outputs.delete(event.callId);
        if (this.running.size === 0) this.spinner.stop();
        else this.spinner.start(`running ${[...this.running.values()].join(", ")}`);
        break;
      case "policy":
        this.line(`  ${this.c.dim(truncate(formatPolicyLine(event), this.width() - 2))}`);
        break;
      case "approval":
        if (event.by !== "flag") {
          const verdict = event.approved ? this.c.green("approved") : this.c.red("declined");
          this.line(`  ${this.c.dim("permission:")} ${verdict}${event.by === "no-terminal" ? this.c.dim(" (no terminal to ask; pass --yes to approve)") : ""}`);
        }
        break;
      case "session-end":
        this.spinner.stop();
        this.endLine();
        this.line("");
        this.line(this.summaryLine(event));
        break;
    }
  }

  /** Stops the spinner (e.g. before prompting the user); returns a function that restarts it. */
  pause(): () => void {
    const wasActive = this.spinner.active;
    this.spinner.stop();
    this.endLine();
    return () => {
      if (wasActive) this.spinner.start(this.running.size ? `running ${[...this.running.values()].join(", ")}` : "thinking");
    };
  }

  private renderToolEnd(event: ToolEndEvent): void {
    const agents = subagentBatchAgents(event.details);
    if (agents !== undefined && agents.length > 0) {
      this.renderSubagentBatch(event, agents);
      return;
    }
    if (event.isError) {
      this.parallelCalls.delete(event.callId);
      const lines = event.text.split("\n").filter((line) => line.trim() !== "");
      this.line(`  ${this.c.red("✗")} ${this.c.red(truncate(lines[0] ?? "failed", this.width() - 4))}`);
      for (const line of lines.slice(1, 4)) this.line(`    ${this.c.dim(truncate(line, this.width() - 4))}`);
    } else {
      // Results of parallel calls may arrive in any order: name the tool.
      const who = this.parallelCalls.delete(event.callId) ? `${event.toolName}: ` : "";
      // A shell session stopped by the user or a timeout is not an error, but not a success either.
      const stopped = SHELL_TOOLS.has(event.toolName) && /^(cancelled|timed_out)$/.test(shellView(event.details)?.status ?? "");
      this.line(
        `  ${stopped ? this.c.yellow("■") : this.c.green("✓")} ${who}${truncate(summarizeResult(event), this.width() - 4 - who.length)} ${this.c.dim(formatDuration(event.durationMs))}`,
      );
    }
    if (event.toolName === "Edit" && !event.isError) this.renderEdit(event);
    if (event.toolName === "ApplyPatch" && !event.isError) this.renderPatch(event);
    if (event.toolName === "Write" && !event.isError) this.renderNewFile(event);
    if (SHELL_TOOLS.has(event.toolName)) this.renderUnstreamedShellOutput(event);
    if (TASK_TOOLS.has(event.toolName) && !event.isError) this.renderTasks(event);
  }

  /** An Agent result: the summary, then one line per agent (failed, cancelled or unapplied work is not a plain success). */
  private renderSubagentBatch(event: ToolEndEvent, agents: readonly SubagentLineView[]): void {
    this.parallelCalls.delete(event.callId);
    for (const key of [...this.cardStates.keys()]) if (key.startsWith(`${event.callId}:`)) this.cardStates.delete(key);
    const mark = event.isError ? this.c.yellow("■") : this.c.green("✓");
    this.line(`  ${mark} ${truncate(summarizeResult(event), this.width() - 4)} ${this.c.dim(formatDuration(event.durationMs))}`);
    for (const agent of agents) {
      const colour = agent.status === "completed" ? (text: string) => text : agent.status === "failed" ? this.c.red : this.c.yellow;
      this.line(`    ${this.c.dim("·")} ${colour(truncate(subagentLine(agent), this.width() - 6))}`);
    }
  }

  /** A `subagent_card` update: a line when an agent starts and when it ends. */
  private renderSubagentCard(callId: string, data: unknown): void {
    const card = subagentCard(data);
    if (!card) return;
    const state = subagentCardState(card.agent);
    const key = `${callId}:${card.index}`;
    if (state === undefined || this.cardStates.get(key) === state) return;
    this.cardStates.set(key, state);
    const position = card.total > 1 ? `${card.index}/${card.total} ` : "";
    this.line(`    ${this.c.dim(`◦ ${position}${truncate(subagentLine(card.agent), this.width() - 8 - position.length)}`)}`);
  }

  /** An Edit call's diff: its pair, or each pair of its `edits` in turn. */
  private renderEdit(event: ToolEndEvent): void {
    const args = event.arguments as { old_string?: unknown; new_string?: unknown; edits?: unknown } | null;
    if (!args) return;
    const pairs = Array.isArray(args.edits) ? (args.edits as Array<{ old_string?: unknown; new_string?: unknown } | null>) : [args];
    for (const pair of pairs) {
      if (!pair || typeof pair.old_string !== "string" || typeof pair.new_string !== "string") continue;
      for (const line of renderEditDiff(pair.old_string, pair.new_string, { colors: this.c, width: this.width() - 8 })) this.line(line);
    }
  }

  /** An ApplyPatch call's unified diff, from its details. */
  private renderPatch(event: ToolEndEvent): void {
    const diff = (event.details as { diff?: unknown } | null)?.diff;
    if (typeof diff !== "string" || diff === "") return;
    for (const line of renderUnifiedDiff(diff, { colors: this.c, width: this.width() - 8 })) this.line(line);
  }

  /** A file Write created is shown as added lines (the first few). */
  private renderNewFile(event: ToolEndEvent): void {
    const args = event.arguments as { content?: unknown } | null;
    const created = (event.details as { existedBefore?: unknown } | null)?.existedBefore === false;
    if (!created || !args || typeof args.content !== "string" || args.content === "") return;
    const lines = args.content.replace(/\r\n/g, "\n").replace(/\n$/, "").split("\n");
    for (const line of lines.slice(0, MAX_NEW_FILE_LINES)) this.line(`    ${this.c.green(`+ ${truncate(line, this.width() - 8)}`)}`);
    if (lines.length > MAX_NEW_FILE_LINES) this.line(`    ${this.c.dim(`… ${lines.length - MAX_NEW_FILE_LINES} more lines`)}`);
  }

  /** Shell output that was not streamed through onUpdate (e.g. the first page of a session) is shown from the details. */
  private renderUnstreamedShellOutput(event: ToolEndEvent): void {
    const shown = this.outputs.get(event.callId)?.shown === true;
    if (shown) return;
    const shell = shellView(event.details);
    if (!shell || shell.output.length === 0) return;
    const lines = shell.output
      .map((part) => part.text)
      .join("")
      .replace(/\n$/, "")
      .split("\n");
    const hidden = Math.max(0, lines.length - MAX_FALLBACK_OUTPUT_LINES);
    if (hidden) this.line(`    ${this.c.dim(`│ … ${hidden} earlier lines`)}`);
    for (const line of lines.slice(hidden)) this.line(`    ${this.c.dim("│")} ${truncate(line, this.width() - 6)}`);
  }

  private renderTasks(event: ToolEndEvent): void {
    this.pendingTasks = taskViews(event.details) ?? this.pendingTasks;
  }

  private flushTasks(): void {
    const tasks = this.pendingTasks;
    this.pendingTasks = undefined;
    if (!tasks) return;
    for (const task of tasks) {
      const mark = task.status === "completed" ? this.c.green("[x]") : task.status === "in_progress" ? this.c.yellow("[~]") : this.c.dim("[ ]");
      const label = task.status === "in_progress" && task.activeForm ? task.activeForm : task.subject;
      this.line(`    ${mark} ${task.status === "completed" ? this.c.dim(label) : label}`);
    }
  }

  /** A long search's progress (Grep, Glob: `data.kind` ending in `_progress` with a `message`) in the spinner line. */
  private showProgress(callId: string, data: unknown): void {
    const toolName = this.running.get(callId);
    if (toolName === undefined || typeof data !== "object" || data === null) return;
    const { kind, message } = data as { kind?: unknown; message?: unknown };
    if (typeof kind !== "string" || !kind.endsWith("_progress") || typeof message !== "string") return;
    this.spinner.relabel(`running ${toolName}: ${message.replace(/^[^:]*: /, "").slice(0, Math.max(20, this.width() - toolName.length - 16))}`);
  }

  private streamOutput(callId: string, text: string, stream: string | undefined): void {
    const state = this.outputs.get(callId) ?? { partial: "", shown: false };
    this.outputs.set(callId, state);
    const combined = state.partial + text.replace(/\r\n/g, "\n");
    const lines = combined.split("\n");
    state.partial = lines.pop() ?? "";
    for (const line of lines) this.outputLine(line, stream);
    if (lines.length) state.shown = true;
  }

  private flushOutput(callId: string): void {
    const state = this.outputs.get(callId);
    if (state && state.partial !== "") {
      this.outputLine(state.partial, undefined);
      state.partial = "";
      state.shown = true;
    }
  }

  private outputLine(line: string, stream: string | undefined): void {
    const body = truncate(line.replace(/\r/g, ""), this.width() - 6);
    this.line(`    ${this.c.dim("│")} ${stream === "stderr" ? this.c.yellow(body) : body}`);
  }

  private summaryLine(event: Extract<AgentEvent, { type: "session-end" }>): string {
    const tokens = event.usage ? ` · ${formatCount(event.usage.inputTokens)} tokens in, ${formatCount(event.usage.outputTokens)} out` : "";
    const figures = `${event.turns} turn${event.turns === 1 ? "" : "s"} · ${event.toolCalls} tool call${event.toolCalls === 1 ? "" : "s"} (${event.failedToolCalls} failed) · ${formatDuration(event.durationMs)}${tokens}`;
    switch (event.status) {
      case "answered":
        return `${this.c.green("✔")} ${this.c.bold("Done")} ${this.c.dim("·")} ${figures}`;
      case "max-turns":
        return `${this.c.yellow("■")} ${this.c.bold("Stopped at the turn limit")} ${this.c.dim("·")} ${figures}`;
      case "aborted":
        return `${this.c.yellow("■")} ${this.c.bold("Cancelled")} ${this.c.dim("·")} ${figures}`;
      case "model-error":
        return `${this.c.red("✖")} ${this.c.bold("Model error:")} ${this.c.red(event.error ?? "unknown")} ${this.c.dim("·")} ${figures}`;
    }
  }

  private width(): number {
    return Math.max(40, Math.min(this.stream.columns ?? 100, 160));
  }

  private separateFromTools(): void {
    if (this.lastWasTool) this.line("");
    this.lastWasTool = false;
  }

  private write(text: string): void {
    if (text === "") return;
    this.spinner.clear();
    this.stream.write(text);
    this.atLineStart = text.endsWith("\n");
  }

  private endLine(): void {
    if (!this.atLineStart) this.write("\n");
  }

  private line(text: string): void {
    this.spinner.clear();
    if (!this.atLineStart) this.stream.write("\n");
    this.stream.write(`${text}\n`);
    this.atLineStart = true;
  }
}

/** `850ms`, `1.9s`, `2m 05s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes}m ${String(seconds).padStart(2, "0")}s`;
}

/** `950`, `12.3k`, `1.2M`. */
export function formatCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(1)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}
