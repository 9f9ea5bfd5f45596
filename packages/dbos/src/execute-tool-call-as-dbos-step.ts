/**
 * A tool call as a DBOS step: the step's recorded output is the call's
 * `ToolResult`, and the registry's call ledger decides what a step that was
 * interrupted mid-run does when DBOS runs it again.
 *
 * Invariants:
 * - The call is made with `durable: { runId }` (the workflow id unless the
 *   host names another run), so the ledger records it `started` before the
 *   tool runs and `completed` / `failed` after.
 * - DBOS never retries the step (`retriesAllowed: false`): a tool failure is
 *   a result, not a thrown error, and a thrown error is host misuse that
 *   another attempt would not cure.
 * - Nothing is kept between calls: DBOS's own singleton holds the workflow
 *   context, the registry holds the ledger.
 */
import { SdkError, type ToolCall, type ToolRegistry, type ToolResult } from "@agent-tools/core";
import { DBOS } from "@dbos-inc/dbos-sdk";
import type { ExecuteToolCallOptions } from "@agent-tools/core";
import { closestName, previewForMessage } from "@agent-tools/core/internal";

/** Options of {@link executeToolCallAsDbosStep}: the per-call options of `executeToolCall` but `durable`, plus the run. */
export interface DbosToolCallOptions extends Omit<ExecuteToolCallOptions, "durable"> {
  /**
   * The ledger's run for this call; default: the DBOS workflow id
   * (`DBOS.workflowID`). 1-200 characters.
   */
  runId?: string;
}

const MAX_RUN_ID_LENGTH = 200;
/** The options this adapter knows: `executeToolCall`'s but `durable`, and `runId`. */
const OPTION_KEYS = ["signal", "onUpdate", "onEvent", "hostContext", "telemetry", "approvalGranted", "checkpointId", "runId"];

/** The name of a call's step in DBOS's records: `tool <name> <call id>`. */
export function dbosToolStepName(call: Pick<ToolCall, "name" | "id">): string {
  return `tool ${call.name} ${call.id}`;
}

function checkCall(call: ToolCall): void {
  if (call === null || typeof call !== "object") {
    throw new SdkError("invalid_tool_call", "executeToolCallAsDbosStep needs a tool call object ({ id, name, arguments }).");
  }
  if (typeof call.name !== "string" || call.name === "") {
    throw new SdkError("invalid_tool_call", "executeToolCallAsDbosStep: the call needs a non-empty string `name`.");
  }
  if (typeof call.id !== "string" || call.id === "") {
    throw new SdkError(
      "invalid_tool_call",
      "executeToolCallAsDbosStep: the call needs a non-empty string `id` (the ledger keys each call by its run and call id).",
    );
  }
}

function checkOptions(options: DbosToolCallOptions): void {
  if (options === null || typeof options !== "object") {
    throw new SdkError("invalid_options", "executeToolCallAsDbosStep: options must be an object (or left out).");
  }
  if ("durable" in options && (options as { durable?: unknown }).durable !== undefined) {
    throw new SdkError(
      "invalid_options",
      "executeToolCallAsDbosStep: `durable` is set by the adapter; pass `runId` to name another run than the workflow id.",
      {
        option: "durable",
      },
    );
  }
  for (const key of Object.keys(options)) {
    if (OPTION_KEYS.includes(key)) continue;
    const suggestion = closestName(key, OPTION_KEYS);
    throw new SdkError(
      "invalid_options",
      `executeToolCallAsDbosStep has an unknown option ${previewForMessage(key, 60)}${suggestion === undefined ? "" : `; did you mean \`${suggestion}\`?`} Known options: ${OPTION_KEYS.join(", ")}.`,
      { option: key },
    );
  }
  const runId = options.runId;
  if (runId !== undefined && (typeof runId !== "string" || runId.length === 0 || runId.length > MAX_RUN_ID_LENGTH)) {
    throw new SdkError(
      "invalid_options",
      `executeToolCallAsDbosStep: \`runId\` must be a string of 1-${MAX_RUN_ID_LENGTH} characters (or left out for the workflow id).`,
      {
        option: "runId",
      },
    );
  }
}

/**
 * Runs a tool call as a DBOS step of the current workflow, recorded in the
 * registry's call ledger under the workflow id (or `options.runId`). The
 * step's output is the call's `ToolResult`: a recovered workflow gets it back
 * from DBOS without running anything. A step that was interrupted (the
 * process killed while the tool ran) runs again on recovery, and the ledger
 * answers: the recorded result when the call finished, `outcome_unknown` for
 * an `unsafe` call that started but never finished (never run twice), a new
 * run for a `none` or `idempotent` one.
 *
 * Must be called from a DBOS workflow function (not from inside a step). The
 * registry needs a `ledger` (`createToolRegistry({ ledger })`), else the
 * call rejects with `SdkError("invalid_options")`. Tool failures are
 * results (`isError: true`); host misuse is a thrown `SdkError`.
 *
 * @example
 * const agentTurn = DBOS.registerWorkflow(
 *   async (calls: ToolCall[]) => {
 *     const results: ToolResult[] = [];
 *     for (const call of calls) results.push(await executeToolCallAsDbosStep(registry, call));
 *     return results;
 *   },
 *   { name: "agentTurn" },
 * );
 */
export async function executeToolCallAsDbosStep(registry: ToolRegistry, call: ToolCall, options: DbosToolCallOptions = {}): Promise<ToolResult> {
  if (registry === null || typeof registry !== "object" || typeof registry.executeToolCall !== "function") {
    throw new SdkError("invalid_options", "executeToolCallAsDbosStep needs a ToolRegistry (createToolRegistry) as its first argument.");
  }
  checkCall(call);
  checkOptions(options);
  // Outside a workflow DBOS.runStep would be a plain call with no record; inside a step, a nested step records nothing of its own.
  if (!DBOS.isInWorkflow()) {
    throw new SdkError(
      "unsupported",
      DBOS.isWithinWorkflow()
        ? "executeToolCallAsDbosStep was called from inside a DBOS step or transaction; call it from the workflow function itself."
        : "executeToolCallAsDbosStep must be called inside a DBOS workflow (a function registered with DBOS.registerWorkflow or @DBOS.workflow()).",
    );
  }
  const { runId: givenRunId, ...callOptions } = options;
  const runId = givenRunId ?? DBOS.workflowID;
  if (runId === undefined) throw new SdkError("unsupported", "executeToolCallAsDbosStep: DBOS reports no workflow id in this workflow.");
  if (runId.length > MAX_RUN_ID_LENGTH) {
    throw new SdkError(
      "invalid_options",
      `executeToolCallAsDbosStep: the workflow id is longer than the ledger's ${MAX_RUN_ID_LENGTH} characters; pass a shorter \`runId\`.`,
      { option: "runId" },
    );
  }
  return DBOS.runStep(() => registry.executeToolCall(call, { ...callOptions, durable: { runId } }), {
    name: dbosToolStepName(call),
    retriesAllowed: false,
  });
}
