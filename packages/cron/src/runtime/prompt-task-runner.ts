/**
 * Runs a prompt task: a small tool loop of the host's model over a
 * cron-scope tool registry built for the task's workdir.
 */
import { isAbortError } from "@agent-tools/core";
import type { ModelClient, ModelMessage, ModelRequest, ToolRegistry, ToolResult } from "@agent-tools/core";
import type { Workspace } from "@agent-tools/core/workspace";
import type { CronTask } from "../domain/cron-types.js";
import { capRunOutput } from "../domain/cron-run-output.js";
import { type CronTaskOutcome, type CronTaskRunContext, startRunDeadline, taskPolicyOrRefusal, verifiedRunWorkdir } from "./cron-task-outcome.js";
import type { LiveCronPolicyRoots } from "./cron-workdir-check.js";
import { placePromptRunInWorkspace } from "./workspace-prompt-task.js";

/**
 * Where a prompt run of a task recorded on a workspace that is not the
 * local disk works: the third argument of {@link BuildPromptRegistry}.
 */
export interface PromptRunPlacement {
  /** The scheduler's workspace of the task's label: the run's registry must be built on it (its `ports.workspace`). */
  readonly workspace: Workspace;
  /** The task's recorded roots that still resolve to themselves there, inside its root. */
  readonly liveRoots: LiveCronPolicyRoots;
}

/**
 * Builds the tool registry of one prompt run: the host creates it with
 * `runtimeScope: "cron"` for `workdir` (canonical, checked inside the
 * writable roots of `task.policy`), under `task.policy`: its roots, its
 * sandbox and network, never wider (MCP load failures throw here). For a
 * task recorded on a non-local workspace `placement` is given, `workdir`
 * is a path there, and the registry must be built on
 * `placement.workspace` (a registry that is not is closed and the run
 * refused). The runner closes it after the run.
 */
export type BuildPromptRegistry = (workdir: string, task: CronTask, placement?: PromptRunPlacement) => Promise<ToolRegistry>;

/** Default most model rounds of one prompt run. */
export const PROMPT_MAX_ROUNDS_DEFAULT = 20;

/** Options of {@link runPromptTask}. */
export interface PromptTaskRunOptions extends CronTaskRunContext {
  readonly model: ModelClient;
  readonly buildPromptRegistry: BuildPromptRegistry;
  /** Workspaces (not the local disk) tasks recorded on one run in: the one of the task's label. */
  readonly workspaces?: readonly Workspace[];
  /** Default {@link PROMPT_MAX_ROUNDS_DEFAULT}. */
  readonly maxRounds?: number;
  /** Default: a short instruction that says the run is unattended. */
  readonly systemPrompt?: string;
}

/**
 * Runs `task.prompt` once: model turn, tool calls through the registry,
 * results back, until the model answers without tool calls (success) or
 * the round limit, the timeout, an abort or a model error ends it (failure).
 * The output is the final assistant text plus one line summing up the tool
 * calls. Never throws. Every model request carries the task's `reasoning`
 * (`medium` for tasks the tool created); the host's ModelClient maps it.
 *
 * @example
 * const outcome = await runPromptTask(task, { model, buildPromptRegistry: (workdir) => buildRegistry(workdir) });
 */
export async function runPromptTask(task: CronTask, options: PromptTaskRunOptions): Promise<CronTaskOutcome> {
  if (task.prompt === undefined || task.prompt.trim() === "") {
    return { success: false, exitCode: null, output: `Task ${task.id} has no prompt. Update the task with a prompt.` };
  }
  const recorded = taskPolicyOrRefusal(task);
  if ("refusal" in recorded) return recorded.refusal;
  const checked: { readonly workdir: string; readonly placement?: PromptRunPlacement } | { readonly refusal: CronTaskOutcome } =
    recorded.policy.workspaceLabel === undefined
      ? await verifiedRunWorkdir(task, recorded.policy)
      : await placePromptRunInWorkspace(task, recorded.policy, options.workspaces);
  if ("refusal" in checked) return checked.refusal;
  const { placement } = checked;

  const deadline = startRunDeadline(task, options.signal);
  const { timeoutMs } = deadline;

  const maxRounds = Math.max(1, Math.floor(options.maxRounds ?? PROMPT_MAX_ROUNDS_DEFAULT));
  const calls = new Map<string, number>();
  let failedCalls = 0;
  let registry: ToolRegistry | undefined;
  let finalText = "";
  let status: "answered" | "max-rounds" | "error" = "max-rounds";
  let error: string | undefined;
  try {
    try {
      registry = await (placement === undefined
        ? options.buildPromptRegistry(checked.workdir, task)
        : options.buildPromptRegistry(checked.workdir, task, placement));
    } catch (caught) {
      status = "error";
      error = `The tools of the run could not be loaded: ${messageOf(caught)}. Fix the tool configuration (e.g. an MCP server), then wait for the next run.`;
      return summarise();
    }
    if (registry.workdir !== checked.workdir) {
      // The last check before the model runs: a folder swapped for a symlink since the check above is refused, not entered.
      status = "error";
      error = `The working directory ${task.workdir} of task ${task.id} changed while the run was starting (its registry resolved it to ${registry.workdir}, not ${checked.workdir}); the run was refused.`;
      return summarise();
    }
    if (placement !== undefined && registry.ports.workspace !== placement.workspace) {
      // Fail closed: a builder that ignored the placement would work on this host's disk.
      status = "error";
      error = `The run was refused: its tool registry was not built on the workspace ${placement.workspace.label} the task belongs to (the scheduler's buildPromptRegistry must build it on its third argument's workspace), and the run never works on this host instead.`;
      return summarise();
    }
    const messages: ModelMessage[] = [
      { role: "system", content: options.systemPrompt ?? defaultCronSystemPrompt(registry.workdir) },
      { role: "user", content: task.prompt },
    ];
    for (let round = 1; round <= maxRounds; round += 1) {
      if (deadline.signal.aborted) break;
      const request: ModelRequest = {
        messages,
        tools: registry.tools,
        signal: deadline.signal,
        ...(task.reasoning === undefined ? {} : { reasoning: task.reasoning }),
      };
      const response = await options.model.generate(request);
      messages.push({ role: "assistant", content: response.text, toolCalls: response.toolCalls.length ? response.toolCalls : undefined });
      if (response.toolCalls.length === 0) {
        finalText = response.text;
        status = "answered";
        break;
      }
      finalText = response.text || finalText;
      for (const call of response.toolCalls) {
        const result = await registry.executeToolCall({ id: call.id, name: call.name, arguments: call.arguments }, { signal: deadline.signal });
        const name = registry.resolveToolName(call.name) ?? call.name;
        calls.set(name, (calls.get(name) ?? 0) + 1);
        if (result.isError) failedCalls += 1;
        messages.push({ role: "tool", toolCallId: call.id, toolName: call.name, content: resultText(result), isError: result.isError });
      }
    }
  } catch (caught) {
    if (!(deadline.signal.aborted || isAbortError(caught))) {
      status = "error";
      error = `The model failed: ${messageOf(caught)}`;
    }
  } finally {
    deadline.dispose();
    await registry?.close().catch(() => undefined);
  }
  return summarise();

  function summarise(): CronTaskOutcome {
    const total = [...calls.values()].reduce((sum, count) => sum + count, 0);
    const byTool = [...calls.entries()].map(([name, count]) => `${name} x${count}`).join(", ");
    const summary = `Tool calls: ${total}${total ? ` (${byTool})` : ""}${failedCalls ? `, ${failedCalls} failed` : ""}.`;
    const lines: string[] = [];
    if (finalText) lines.push(finalText);
    if (deadline.ending() === "timeout") lines.push(`Timed out after ${timeoutMs / 1000} s. Raise timeout_seconds or simplify the prompt.`);
    else if (deadline.ending() === "aborted") lines.push("The run was cancelled.");
    else if (status === "error") lines.push(error ?? "The run failed.");
    else if (status === "max-rounds") lines.push(`Stopped after ${maxRounds} model rounds without a final answer. Simplify the prompt.`);
    lines.push(summary);
    const success = deadline.ending() === undefined && status === "answered";
    return { success, exitCode: null, output: capRunOutput(lines.join("\n")) };
  }
}

/** The system prompt of an unattended prompt run. */
export function defaultCronSystemPrompt(workdir: string): string {
  return [
    "You are running a scheduled task without a user present: nobody can answer questions.",
    `Working directory: ${workdir}.`,
    "Use the tools to do the task, then finish with a short report of what you did and what you found.",
  ].join("\n");
}

function resultText(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[image ${block.mimeType}]`)).join("\n");
}

function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}
