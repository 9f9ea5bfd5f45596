/**
 * Runs one claimed run to its end for a scheduler: picks the executor by
 * task type, keeps the run's lease renewed while it runs, records the
 * outcome, and sets or clears the task's `lastError` (disabling the task
 * when its workdir is gone).
 */
import type { ModelClient, ProcessRunner } from "@agent-tools/core";
import type { CronRunRecord, CronTask } from "../domain/cron-types.js";
import { capRunOutput } from "../domain/cron-run-output.js";
import type { Workspace } from "@agent-tools/core/workspace";
import type { CronStore } from "../ports/cron-store.js";
import { type CronBashSandbox, runBashTask } from "./bash-task-runner.js";
import type { CronClock } from "./cron-clock.js";
import type { CronSchedulerEvent } from "./cron-scheduler-events.js";
import type { CronTaskOutcome } from "./cron-task-outcome.js";
import { runHttpTask } from "./http-task-runner.js";
import type { ResolveHost } from "../outbound/ssrf-guard.js";
import { type BuildPromptRegistry, runPromptTask } from "./prompt-task-runner.js";

/**
 * Replaces the built-in executors (a testing and embedding hook): called
 * with the task and its claimed run; its outcome is recorded like theirs.
 */
export type CronTaskExecutor = (task: CronTask, run: CronRunRecord, signal: AbortSignal) => Promise<CronTaskOutcome>;

/** What {@link executeCronRun} needs from its scheduler. */
export interface CronRunExecutorContext {
  readonly store: CronStore;
  readonly owner: string;
  readonly clock: CronClock;
  readonly leaseMs: number;
  readonly processRunner: ProcessRunner;
  /** Confinement of bash tasks; absent: tasks whose registry confined commands are refused, the others run unconfined. */
  readonly bashSandbox?: CronBashSandbox;
  /** Workspaces (not the local disk) bash and prompt tasks recorded on one run in. */
  readonly workspaces?: readonly Workspace[];
  /** Host name resolution of http tasks' SSRF guard; default the system resolver. */
  readonly resolveHost?: ResolveHost;
  readonly model?: ModelClient;
  readonly buildPromptRegistry?: BuildPromptRegistry;
  readonly executor?: CronTaskExecutor;
  readonly emit: (event: CronSchedulerEvent) => void;
}

/** Longest `lastError` kept on a task, in characters. */
const LAST_ERROR_MAX_CHARS = 2_000;

/**
 * Runs `run` (already leased to `context.owner`) and records it. Never
 * throws; store failures are reported as `error` events. Aborting `signal`
 * cancels the run (it is then recorded as failed).
 */
export async function executeCronRun(context: CronRunExecutorContext, run: CronRunRecord, signal: AbortSignal, takenOver: boolean): Promise<void> {
  const { store, owner, clock, emit } = context;
  let task: CronTask | undefined;
  try {
    task = await store.getTask(run.taskId);
  } catch (caught) {
    emit({ type: "error", message: `Could not load task ${run.taskId} for run ${run.id}: ${messageOf(caught)}`, taskId: run.taskId });
    return;
  }
  if (task === undefined) return; // Deleted with its runs.
  emit({ type: "run-started", taskId: task.id, runId: run.id, scheduledAt: run.scheduledAt, takenOver });
  const startedAt = clock.now();
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (signal.aborted) controller.abort();
  signal.addEventListener("abort", onAbort, { once: true });
  const done = new AbortController();
  const renewing = keepLeaseRenewed(context, run, task.id, done.signal, controller);

  let outcome: CronTaskOutcome;
  try {
    outcome = await runTask(context, task, run, controller.signal);
  } catch (caught) {
    outcome = { success: false, exitCode: null, output: `The run failed unexpectedly: ${messageOf(caught)}` };
  } finally {
    done.abort();
    signal.removeEventListener("abort", onAbort);
  }
  await renewing;
  if (signal.aborted && outcome.success === false && !outcome.output.includes("cancelled")) {
    outcome = { ...outcome, output: `${outcome.output}\nThe run was cancelled because the scheduler stopped.` };
  }
  const finishedAt = clock.now();
  let recorded = false;
  try {
    recorded = await store.finishRun(run.id, owner, {
      success: outcome.success,
      finishedAt,
      exitCode: outcome.exitCode,
      output: capRunOutput(outcome.output),
    });
  } catch (caught) {
    emit({ type: "error", message: `Could not record run ${run.id} of task ${task.id}: ${messageOf(caught)}`, taskId: task.id });
    return;
  }
  if (!recorded) {
    emit({ type: "lease-lost", taskId: task.id, runId: run.id });
    return;
  }
  emit({ type: "run-finished", taskId: task.id, runId: run.id, scheduledAt: run.scheduledAt, success: outcome.success, durationMs: finishedAt - startedAt });
  await updateTaskAfterRun(context, task, outcome);
}

async function runTask(context: CronRunExecutorContext, task: CronTask, run: CronRunRecord, signal: AbortSignal): Promise<CronTaskOutcome> {
  if (context.executor) return context.executor(task, run, signal);
  switch (task.type) {
    case "bash":
      return runBashTask(task, {
        processRunner: context.processRunner,
        sandbox: context.bashSandbox,
        signal,
        ...(context.workspaces === undefined ? {} : { workspaces: context.workspaces }),
      });
    case "http":
      return runHttpTask(task, { ...(context.resolveHost === undefined ? {} : { resolveHost: context.resolveHost }), signal });
    case "prompt":
      if (context.model === undefined || context.buildPromptRegistry === undefined) {
        return {
          success: false,
          exitCode: null,
          output: "This scheduler has no model or tool registry for prompt tasks. Start the scheduler with `model` and `buildPromptRegistry`.",
        };
      }
      // A task of a registry on a non-local workspace runs with a registry on the scheduler's workspace of its label, never on this host.
      return runPromptTask(task, {
        model: context.model,
        buildPromptRegistry: context.buildPromptRegistry,
        signal,
        ...(context.workspaces === undefined ? {} : { workspaces: context.workspaces }),
      });
    default:
      return { success: false, exitCode: null, output: `Unknown task type ${String(task.type)}.` };
  }
}

/** Renews the lease every third of `leaseMs` until `done`; a lost lease aborts the run. */
async function keepLeaseRenewed(context: CronRunExecutorContext, run: CronRunRecord, taskId: string, done: AbortSignal, run_: AbortController): Promise<void> {
  const every = Math.max(10, Math.floor(context.leaseMs / 3));
  for (;;) {
    await context.clock.sleep(every, done);
    if (done.aborted) return;
    try {
      const kept = await context.store.renewLease(run.id, context.owner, context.clock.now() + context.leaseMs);
      if (!kept) {
        context.emit({ type: "lease-lost", taskId, runId: run.id });
        run_.abort();
        return;
      }
    } catch (caught) {
      context.emit({ type: "error", message: `Could not renew the lease of run ${run.id}: ${messageOf(caught)}`, taskId });
    }
  }
}

async function updateTaskAfterRun(context: CronRunExecutorContext, task: CronTask, outcome: CronTaskOutcome): Promise<void> {
  const now = context.clock.now();
  try {
    if (outcome.disableTask) {
      await context.store.updateTask(task.id, { enabled: false, lastError: cut(outcome.output) }, now);
      context.emit({ type: "task-disabled", taskId: task.id, reason: cut(outcome.output) });
    } else if (!outcome.success) {
      await context.store.updateTask(task.id, { lastError: cut(outcome.output) }, now);
    } else if (task.lastError !== undefined) {
      await context.store.updateTask(task.id, { lastError: null }, now);
    }
  } catch (caught) {
    context.emit({ type: "error", message: `Could not update task ${task.id} after its run: ${messageOf(caught)}`, taskId: task.id });
  }
}

function cut(text: string): string {
  const trimmed = text.trim() || "The run failed without output.";
  return trimmed.length <= LAST_ERROR_MAX_CHARS ? trimmed : `${trimmed.slice(0, LAST_ERROR_MAX_CHARS)}...[truncated]`;
}

function messageOf(caught: unknown): string {
  return caught instanceof Error ? caught.message : String(caught);
}
