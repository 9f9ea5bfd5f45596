import { type ExecuteToolCallOptions, SdkError, type ToolCall, type ToolRegistry, type ToolResult } from "@agent-tools/core";
import { closestName } from "@agent-tools/core/internal";
import { type Context, TerminalError } from "@restatedev/restate-sdk";

/**
 * Options of {@link executeToolCallInRestate}: the per-call options of
 * `executeToolCall` except `durable`, which the adapter sets.
 */
export interface RestateToolCallOptions extends Omit<ExecuteToolCallOptions, "durable"> {
  /**
   * The ledger's run id (1-200 characters). Default: the Restate invocation
   * id (`ctx.request().id`), which stays the same across the invocation's
   * retries, so a retried attempt finds the calls its predecessor started.
   */
  runId?: string;
}

const KNOWN_OPTIONS: ReadonlySet<string> = new Set(["signal", "onUpdate", "onEvent", "hostContext", "telemetry", "approvalGranted", "checkpointId", "runId"]);

/**
 * Runs one tool call as a journaled Restate step (`ctx.run`) whose body is
 * `registry.executeToolCall(call, { ...options, durable: { runId } })`.
 *
 * - The `ToolResult` is what Restate journals: a retried invocation gets it
 *   back from the journal and the tool does not run.
 * - A step interrupted before Restate journaled it (the endpoint process was
 *   killed mid-call) runs again under Restate's retry, and the registry's
 *   ledger decides: a recorded result is returned as it is, an `unsafe`
 *   call that started but never finished becomes an `outcome_unknown` error
 *   result (never run twice), a `none` / `idempotent` one runs again.
 * - Tool failures are results (`isError`), never thrown, so Restate does not
 *   retry them. Host misuse (`SdkError`, e.g. a registry without a `ledger`,
 *   a closed registry, bad options) becomes a `TerminalError` carrying the
 *   SDK's code in `metadata.sdkErrorCode`; anything else thrown is left to
 *   Restate's retry.
 * - The call is aborted when `options.signal` aborts or when Restate ends
 *   the attempt (`ctx.request().attemptCompletedSignal`).
 *
 * The registry must have been created with a `ledger`
 * (`@agent-tools/durable`).
 *
 * @example
 * ```ts
 * const agent = restate.service({
 *   name: "Agent",
 *   handlers: {
 *     tool: async (ctx: restate.Context, call: ToolCall) => executeToolCallInRestate(ctx, registry, call),
 *   },
 * });
 * ```
 */
export async function executeToolCallInRestate(
  ctx: Context,
  registry: Pick<ToolRegistry, "executeToolCall">,
  call: ToolCall,
  options?: RestateToolCallOptions,
): Promise<ToolResult> {
  const { runId: givenRunId, signal: givenSignal, ...callOptions } = terminalOnMisuse(() => checkOptions(options));
  const request = ctx.request();
  const runId = givenRunId ?? String(request.id);
  const signal = givenSignal === undefined ? request.attemptCompletedSignal : AbortSignal.any([givenSignal, request.attemptCompletedSignal]);
  const name = stepName(call);
  return ctx.run(name, () => terminalOnMisuseAsync(() => registry.executeToolCall(call, { ...callOptions, signal, durable: { runId } })));
}

/** The journal entry's name: `tool <name> <id>`, for Restate's UI and logs. */
function stepName(call: ToolCall): string {
  const toolName = call !== null && typeof call === "object" && typeof call.name === "string" ? call.name : "?";
  const callId = call !== null && typeof call === "object" && typeof call.id === "string" ? call.id : "?";
  return `tool ${toolName} ${callId}`;
}

function checkOptions(options: RestateToolCallOptions | undefined): RestateToolCallOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object") {
    throw new SdkError("invalid_options", "executeToolCallInRestate options must be an object, e.g. { runId: 'turn-1' }.");
  }
  for (const key of Object.keys(options)) {
    if (key === "durable") {
      throw new SdkError("invalid_options", "executeToolCallInRestate sets durable itself; pass { runId } instead of { durable: { runId } }.", {
        option: key,
      });
    }
    if (!KNOWN_OPTIONS.has(key)) {
      const closest = closestName(key, [...KNOWN_OPTIONS]);
      const hint = closest === undefined ? `known: ${[...KNOWN_OPTIONS].join(", ")}.` : `did you mean "${closest}"?`;
      throw new SdkError("invalid_options", `Unknown executeToolCallInRestate option "${key}"; ${hint}`, { option: key });
    }
  }
  const { runId } = options;
  if (runId !== undefined && (typeof runId !== "string" || runId.length === 0 || runId.length > 200)) {
    throw new SdkError("invalid_options", "executeToolCallInRestate option runId must be a string of 1-200 characters; omit it to use the invocation id.", {
      option: "runId",
    });
  }
  return options;
}

/** Restate retries every error but a TerminalError; host misuse does not get better by retrying. */
function toTerminal(error: unknown): unknown {
  if (!(error instanceof SdkError)) return error;
  return new TerminalError(`${error.code}: ${error.message}`, { errorCode: 400, metadata: { sdkErrorCode: error.code } });
}

function terminalOnMisuse<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw toTerminal(error);
  }
}

async function terminalOnMisuseAsync<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw toTerminal(error);
  }
}
