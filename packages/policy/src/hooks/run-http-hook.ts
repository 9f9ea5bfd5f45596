/**
 * Runs an HTTP hook: POSTs the input as JSON to its URL with the global
 * `fetch`. A 2xx answer's body is the answer (a JSON object, or empty for
 * "no opinion"); a redirect is not followed and counts as a failure, as do
 * any other status, a body over 1 MiB, a network error and the timeout
 * (default 60 s). Aborting the call aborts the request.
 */
import { readCappedBody } from "@agent-tools/core/internal";
import { type HookRunContext, type HookRunOutcome, excerpt, startHookDeadline } from "./hook-run.js";
import { type HookInput, type HttpHookHandler, MAX_HOOK_OUTPUT_BYTES } from "./hook-settings.js";
import { parseHookOutputText } from "./parse-hook-output.js";

/** Reads a body up to `limit` bytes; undefined when it is larger. */
async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  const body = await readCappedBody(response, limit);
  return body === undefined ? undefined : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");
}

/** Runs one HTTP hook; never rejects. */
export async function runHttpHook(handler: HttpHookHandler, input: HookInput, context: HookRunContext): Promise<HookRunOutcome> {
  const deadline = startHookDeadline(handler.timeoutMs, context.signal);
  try {
    if (deadline.signal.aborted) return { kind: "failed", error: deadline.why() };
    const response = await fetch(handler.url, {
      method: "POST",
      headers: { ...handler.headers, "content-type": "application/json" },
      body: JSON.stringify(input),
      redirect: "manual",
      signal: deadline.signal,
    });
    if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: "failed", error: `answered with a redirect (HTTP ${response.status}), which is not followed` };
    }
    const body = await readCapped(response, MAX_HOOK_OUTPUT_BYTES);
    if (body === undefined) return { kind: "failed", error: `answered with a body over ${MAX_HOOK_OUTPUT_BYTES} bytes` };
    if (!response.ok) return { kind: "failed", error: `answered HTTP ${response.status}${body.trim() === "" ? "" : `: ${excerpt(body)}`}` };
    const parsed = parseHookOutputText(body, input.hook_event_name);
    return "failure" in parsed ? { kind: "failed", error: parsed.failure } : { kind: "answered", output: parsed.output };
  } catch (error) {
    if (deadline.signal.aborted) return { kind: "failed", error: deadline.why() };
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return { kind: "failed", error: `request failed: ${error instanceof Error ? error.message : String(error)}${cause}` };
  } finally {
    deadline.dispose();
  }
}
