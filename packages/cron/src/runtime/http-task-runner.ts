/**
 * Runs an http task: its requests in order with `fetch`, each result
 * recorded (status, time, the head of the body, or the error; see
 * `describeHttpResults`); the run
 * succeeds only when every request got a 2xx. The whole task runs under its
 * timeout.
 */
import type { CronTask } from "../domain/cron-types.js";
import { CRON_HTTP_BODY_PREVIEW_CHARS, type CronHttpRequestResult, capRunOutput, describeHttpResults } from "../domain/cron-run-output.js";
import { type CronTaskOutcome, type CronTaskRunContext, startRunDeadline } from "./cron-task-outcome.js";

/** The `fetch` an http task uses (the global one by default). */
export type CronFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Options of {@link runHttpTask}. */
export interface HttpTaskRunOptions extends CronTaskRunContext {
  /** Default: the global `fetch`. */
  readonly fetch?: CronFetch;
}

/**
 * Runs every request of `task` once, in order (a failed request does not
 * stop the next). Never throws. On timeout the request in flight is aborted
 * and the requests after it are reported as not run.
 *
 * @example
 * const outcome = await runHttpTask(task, { fetch });
 */
export async function runHttpTask(task: CronTask, options: HttpTaskRunOptions = {}): Promise<CronTaskOutcome> {
  const requests = task.requests ?? [];
  if (requests.length === 0) return { success: false, exitCode: null, output: `Task ${task.id} has no requests. Update the task with at least one request.` };
  const doFetch: CronFetch = options.fetch ?? ((url, init) => fetch(url, init));
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
      try {
        const response = await doFetch(request.url, {
          method: request.method,
          headers: request.headers ? { ...request.headers } : undefined,
          body: request.body !== undefined && request.method !== "GET" && request.method !== "HEAD" ? request.body : undefined,
          signal: deadline.signal,
          redirect: "follow",
        });
        const body = await readHead(response, CRON_HTTP_BODY_PREVIEW_CHARS + 1);
        results.push({ ...base, status: response.status, durationMs: Math.round(performance.now() - startedAt), body });
      } catch (caught) {
        const error = deadline.signal.aborted
          ? deadline.ending() === "timeout"
            ? `timed out after ${timeoutMs / 1000} s`
            : "cancelled"
          : caught instanceof Error
            ? describeFetchError(caught)
            : String(caught);
        results.push({ ...base, durationMs: Math.round(performance.now() - startedAt), error });
      }
    }
  } finally {
    deadline.dispose();
  }
  const success = results.every((result) => result.status !== undefined && result.status >= 200 && result.status < 300);
  const last = results.at(-1);
  let output = describeHttpResults(results);
  if (deadline.ending() === "timeout") output += `\nTimed out after ${timeoutMs / 1000} s. Raise timeout_seconds or use fewer or faster requests.`;
  return { success, exitCode: last?.status ?? null, output: capRunOutput(output) };
}

async function readHead(response: Response, maxChars: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length > maxChars) {
        await reader.cancel().catch(() => undefined);
        return text.slice(0, maxChars);
      }
    }
    return text + decoder.decode();
  } finally {
    reader.releaseLock();
  }
}

function describeFetchError(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? cause.message : undefined;
  return detail && detail !== error.message ? `${error.message} (${detail})` : error.message;
}
