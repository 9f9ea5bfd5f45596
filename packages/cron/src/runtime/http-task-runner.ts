/**
 * Runs an http task: its requests in order, each result recorded (status,
 * time, the head of the body, or the error or refusal; see
 * `describeHttpResults`); the run succeeds only when every request got a
 * 2xx. The whole task runs under its timeout. The task's recorded policy
 * rules: no request at all when the registry that created it had no network,
 * and otherwise every request goes through the SSRF guard (public addresses
 * plus the policy's `allowedPrivateNetworks`, every redirect hop checked,
 * the checked address dialled).
 */
import type { CronTask } from "../domain/cron-types.js";
import { CRON_HTTP_BODY_PREVIEW_CHARS, type CronHttpRequestResult, capRunOutput, describeHttpResults } from "../domain/cron-run-output.js";
import { cronPolicyAllowsNetwork } from "../domain/cron-task-policy.js";
import { sendGuardedHttpRequest } from "../outbound/guarded-http-request.js";
import { type ResolveHost, type SsrfGuard, createSsrfGuard, isSsrfRefusal } from "../outbound/ssrf-guard.js";
import { type CronTaskOutcome, type CronTaskRunContext, startRunDeadline, taskPolicyOrRefusal } from "./cron-task-outcome.js";

/** Options of {@link runHttpTask}. */
export interface HttpTaskRunOptions extends CronTaskRunContext {
  /** Resolves host names for the guard; default the system resolver. */
  readonly resolveHost?: ResolveHost;
}

/** Said once under the requests when any was refused: what the model or the user can do. */
const REFUSED_HINT =
  "Only public addresses are reached: private, loopback, link-local and other internal targets need the host to list their networks (`cron: { http: { allowedPrivateNetworks } }`); ask the user whether this target is meant to be reached.";

/**
 * Runs every request of `task` once, in order (a failed request does not
 * stop the next). Never throws. On timeout the request in flight is aborted
 * and the requests after it are reported as not run. A refused request
 * logs the reason only, never a body.
 *
 * @example
 * const outcome = await runHttpTask(task);
 */
export async function runHttpTask(task: CronTask, options: HttpTaskRunOptions = {}): Promise<CronTaskOutcome> {
  const requests = task.requests ?? [];
  if (requests.length === 0) return { success: false, exitCode: null, output: `Task ${task.id} has no requests. Update the task with at least one request.` };
  const recorded = taskPolicyOrRefusal(task);
  if ("refusal" in recorded) return recorded.refusal;
  const { policy } = recorded;
  if (!cronPolicyAllowsNetwork(policy)) {
    return {
      success: false,
      exitCode: null,
      disableTask: true,
      output: `No request was sent: the registry that created task ${task.id} has no network (its sandbox runs without allowNetwork), and its http tasks follow the same rule. The task was disabled.`,
    };
  }
  let guard: SsrfGuard;
  try {
    guard = createSsrfGuard({
      allowedPrivateNetworks: policy.allowedPrivateNetworks,
      optionName: "the task's recorded allowedPrivateNetworks",
      ...(options.resolveHost === undefined ? {} : { resolveHost: options.resolveHost }),
    });
  } catch (error) {
    return { success: false, exitCode: null, disableTask: true, output: `No request was sent: ${messageOf(error)} The task was disabled.` };
  }
  const deadline = startRunDeadline(task, options.signal);
  const { timeoutMs } = deadline;
  const results: CronHttpRequestResult[] = [];
  try {
    for (const request of requests) {
      const base = { request: { method: request.method, url: request.url } };
      if (deadline.signal.aborted) {
        results.push({ ...base, durationMs: 0, error: "not run (the task timed out or was cancelled first)" });
        continue;
      }
      const startedAt = performance.now();
      const elapsed = () => Math.round(performance.now() - startedAt);
      try {
        const response = await sendGuardedHttpRequest(
          request.url,
          {
            method: request.method,
            ...(request.headers ? { headers: request.headers } : {}),
            ...(request.body === undefined ? {} : { body: request.body }),
            signal: deadline.signal,
          },
          guard,
        );
        const body = await response.readText(CRON_HTTP_BODY_PREVIEW_CHARS + 1);
        results.push({ ...base, status: response.status, durationMs: elapsed(), body });
      } catch (caught) {
        if (isSsrfRefusal(caught)) {
          results.push({ ...base, durationMs: elapsed(), refused: caught.message });
          continue;
        }
        const error = deadline.signal.aborted
          ? deadline.ending() === "timeout"
            ? `timed out after ${timeoutMs / 1000} s`
            : "cancelled"
          : describeError(caught);
        results.push({ ...base, durationMs: elapsed(), error });
      }
    }
  } finally {
    deadline.dispose();
  }
  const success = results.every((result) => result.status !== undefined && result.status >= 200 && result.status < 300);
  const last = results.at(-1);
  let output = describeHttpResults(results);
  if (results.some((result) => result.refused !== undefined)) output += `\n${REFUSED_HINT}`;
  if (deadline.ending() === "timeout") output += `\nTimed out after ${timeoutMs / 1000} s. Raise timeout_seconds or use fewer or faster requests.`;
  return { success, exitCode: last?.status ?? null, output: capRunOutput(output) };
}

function describeError(caught: unknown): string {
  if (!(caught instanceof Error)) return String(caught);
  const code = (caught as { code?: unknown }).code;
  return typeof code === "string" && !caught.message.includes(code) ? `${caught.message} (${code})` : caught.message;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
