import { ToolError, isAbortError } from "../errors.js";
import type { ToolCall, ToolContent, ToolContext, ToolDefinition, ToolMetadata, ToolOutput, ToolResult } from "../types.js";
import { type ApprovalOptions, callMetadata, resolveApproval } from "./approval-policy.js";
import { checkArgumentLimits } from "./argument-limits.js";
import { parseArguments, rejectUnknownKeys, validateArguments } from "./arguments.js";
import type { ToolEvent } from "./events.js";
import { LoopBreaker } from "./loop-breaker.js";
import { capOutput } from "./output-cap.js";
import { raceWithAbort } from "../abort.js";
import { shortenForMessage } from "../quote.js";
import { toolResultText } from "../tool-result-text.js";
import { type ToolCallSpan, type ToolTelemetryOptions, resolveTracer, startToolCallSpan } from "../telemetry/tool-call-span.js";
import { errorResult, returnedErrorOf, toolErrorOf } from "./result-error.js";
import { type PolicyAdmission, admitByPolicy, policyCallOf, recheckByPolicy, settleByPolicy } from "./policy-gate.js";
import { type DurableStep, openDurableCall } from "./durable-gate.js";
import { ledgerCallIdOf } from "./durable-effects.js";
import { isLedgerKeyText } from "./durable-options.js";
import type { ToolCallPolicy } from "./tool-call-policy.js";
import type { CallLedger, DurableCallOptions } from "./call-ledger.js";

export { errorResult } from "./result-error.js";

/** Per-call options of `executeToolCall`. */
export interface ExecuteToolCallOptions {
  /** Aborting cancels the call; the result is then a cancelled error result. */
  signal?: AbortSignal;
  /** Streamed output and progress of this call. */
  onUpdate?(event: ToolEvent & { type: "tool-output-delta" }): void;
  /** Every event of this call (start, deltas, end). */
  onEvent?(event: ToolEvent): void;
  /** Passed to the tool as `context.hostContext`. */
  hostContext?: unknown;
  /**
   * OpenTelemetry: one `execute_tool <name>` span per call. Omitted: the
   * global tracer of `@opentelemetry/api` when it is installed, else none.
   */
  telemetry?: ToolTelemetryOptions;
  /**
   * The host already asked the user for this very call and the user
   * approved it (e.g. the AI SDK's `needsApproval` flow): an `ask` decision
   * runs the call without asking `onAsk` again. For this call only; it
   * never overrides `deny`.
   */
  approvalGranted?: boolean;
  /** The checkpoint of this call (overrides the registry's `checkpoint.id`); see `ToolContext.checkpointId`. */
  checkpointId?: string;
  /**
   * Record this call in the registry's `ledger` under `runId`: a call
   * already completed there returns its recorded result without running; one
   * that started but never finished runs again when its effects are `none`
   * or `idempotent`, else returns an `outcome_unknown` error result; an
   * approval given once is not asked again. Needs the registry's `ledger`.
   */
  durable?: DurableCallOptions;
}

/** What the executor needs from its registry. */
export interface ExecutorEnvironment {
  readonly approval?: ApprovalOptions;
  /** The registry's permission policy (rules with specifiers, hooks); absent: `approval` alone decides. */
  readonly policy?: ToolCallPolicy;
  /** The call ledger of durable runs; absent: `durable` calls are refused. */
  readonly ledger?: CallLedger;
  /** What a durable call's identity is scoped to (the registry's workdir). */
  readonly ledgerScope?: string;
  readonly loopBreaker?: LoopBreaker;
  readonly maxOutputChars: number;
  /**
   * Throws when `tool` may no longer run (plan mode switched on since the
   * call was admitted). Asked again after every wait (the user's approval, a
   * run slot), right before the tool starts.
   */
  admit?(tool: ToolDefinition): void;
  /** Waits for a run slot of the tool's name (per-name concurrency); resolves with its release. Absent: no limits. */
  acquireSlot?(toolName: string, signal: AbortSignal, cancelled: () => Error): Promise<() => void>;
  emit(event: ToolEvent): void;
  /** The call's context; the call's own `checkpointId` (a non-empty string) wins over the registry's. */
  makeContext(
    tool: ToolDefinition,
    call: ToolCall,
    signal: AbortSignal,
    onUpdate: ToolContext["onUpdate"],
    callOptions: Pick<ExecuteToolCallOptions, "hostContext" | "checkpointId">,
  ): ToolContext;
}

const CANCELLED_TEXT = "Cancelled: the host aborted this call before it finished.";

/** The executor's own cancellation: the host stopped the call, so retrying it on the model's own is no fix. */
function cancelledError(): ToolError {
  return new ToolError("cancelled", CANCELLED_TEXT, { recoverable: false });
}

/**
 * Runs one resolved tool call through every central step: abort check,
 * argument parsing, size and depth limits, validation, approval, execution raced against the
 * abort signal, error normalisation, the loop breaker, output capping and
 * events.
 */
export async function executeResolvedToolCall(
  tool: ToolDefinition,
  call: ToolCall,
  options: ExecuteToolCallOptions,
  environment: ExecutorEnvironment,
): Promise<ToolResult> {
  const startedAt = Date.now();
  const signal = options.signal ?? new AbortController().signal;
  const emit = (event: ToolEvent) => {
    environment.emit(event);
    safely(() => options.onEvent?.(event));
    if (event.type === "tool-output-delta") safely(() => options.onUpdate?.(event));
  };
  emit({ type: "tool-call-start", callId: call.id, toolName: tool.name, arguments: call.arguments, startedAt });
  const telemetry = options.telemetry !== null && typeof options.telemetry === "object" ? options.telemetry : undefined;
  const pendingTracer = resolveTracer(telemetry);
  const tracer = pendingTracer instanceof Promise ? await pendingTracer : pendingTracer;
  const span = startToolCallSpan(tracer, tool.name, call, telemetry?.recordArguments === true);
  let result: ToolResult | undefined;
  try {
    result = await runCall(tool, call, options, environment, signal, emit, span);
    emit({ type: "tool-call-end", callId: call.id, toolName: tool.name, result, durationMs: Date.now() - startedAt });
    return result;
  } finally {
    span.end(result);
  }
}

async function runCall(
  tool: ToolDefinition,
  call: ToolCall,
  options: ExecuteToolCallOptions,
  environment: ExecutorEnvironment,
  signal: AbortSignal,
  emit: (event: ToolEvent) => void,
  span: ToolCallSpan,
): Promise<ToolResult> {
  let pathArgument: string | undefined;
  let result: ToolResult;
  let releaseSlot: (() => void) | undefined;
  let admission: PolicyAdmission | undefined;
  let durable: DurableStep | undefined;
  try {
    if (signal.aborted) throw cancelledError();
    const args = parseArguments(tool.name, call.arguments);
    // Before anything recursive (zod, JSON.stringify) sees them: deep or huge values could overflow the stack.
    checkArgumentLimits(tool.name, args);
    pathArgument = typeof args.path === "string" ? args.path : undefined;
    if (!tool.allowUnknownArguments) rejectUnknownKeys(tool.name, args, tool.jsonSchema);
    const input = tool.inputSchema ? validateArguments(tool.name, args, tool.inputSchema) : args;
    if (tool.loopKey) pathArgument = tool.loopKey(input);
    let runInput: unknown = input;
    if (options.durable && environment.ledger) {
      const opened = await openDurableCall(tool, {
        ledger: environment.ledger,
        runId: options.durable.runId,
        callId: ledgerCallIdOf(call.id, isLedgerKeyText),
        args,
        input,
        scope: environment.ledgerScope ?? "",
        signal,
      });
      // A recorded outcome (or a conflict, an unsafe call interrupted before): answered as it is, nothing runs.
      if ("replay" in opened) return opened.replay;
      durable = opened.step;
    }
    const onApproved = durable ? () => durable!.approve() : undefined;
    if (environment.policy) {
      const granted = options.approvalGranted === true || durable?.approved === true;
      const policyCall = policyCallOf(tool, call.id, input);
      admission = await admitByPolicy(tool, policyCall, {
        policy: environment.policy,
        approval: environment.approval,
        granted,
        signal,
        cancelled: cancelledError,
        onApproved,
      });
      runInput = admission.input;
    } else {
      await checkApproval(tool, call, args, callMetadata(tool, input), signal, {
        approval: environment.approval,
        granted: options.approvalGranted === true || durable?.approved === true,
        onApproved,
      });
    }
    if (signal.aborted) throw cancelledError();
    // Queued after validation and approval (a user is never asked after a wait); an abort while queued cancels the call unstarted.
    if (environment.acquireSlot) {
      releaseSlot = await environment.acquireSlot(tool.name, signal, () => cancelledError());
      if (signal.aborted) throw cancelledError();
    }
    // The registry's state may have changed during the waits above (plan mode switched on): ask again.
    environment.admit?.(tool);
    // The decision was taken before the waits above: the rules judge the call again as it is about to run.
    if (environment.policy && admission) await recheckByPolicy(tool, admission, { policy: environment.policy, signal, cancelled: cancelledError });
    const onUpdate: ToolContext["onUpdate"] = (update) => emit({ type: "tool-output-delta", callId: call.id, toolName: tool.name, update });
    const context: ToolContext = { ...environment.makeContext(tool, call, signal, onUpdate, options), telemetry: span.telemetry };
    if (durable) {
      // Claimed (`started`) right before the tool runs; a recorded or unknown outcome is answered instead.
      const claim = await durable.claim(tool, runInput, Object.freeze({ ...context }));
      if ("result" in claim) return claim.result;
    }
    // The call's span is the active one while the tool runs, so spans below it (MCP, the host's own) are its children.
    const output = await span.runInContext(() => runWithAbort(tool, runInput, Object.freeze(context), signal));
    result = normalise(output);
  } catch (error) {
    result = toErrorResult(tool.name, error, signal);
  } finally {
    // Given back when the call returns (after an abort, a tool that ignores its signal may still be finishing).
    releaseSlot?.();
  }
  if (environment.policy) result = await settleByPolicy(environment.policy, admission, result, signal);
  const finished = finish(tool, call, result, pathArgument, environment);
  // What the host gets is what a resumed run gets back.
  await durable?.record(finished);
  return finished;
}

/** How {@link checkApproval} decides: the registry's approval options and what the host already granted. */
interface ApprovalCheck {
  readonly approval: ApprovalOptions | undefined;
  /** The host (or the ledger of a durable run) already approved this very call. */
  readonly granted: boolean;
  /** Awaited after the user approves, before the call goes on (the ledger records it). */
  readonly onApproved: (() => Promise<void>) | undefined;
}

async function checkApproval(
  tool: ToolDefinition,
  call: ToolCall,
  args: Record<string, unknown>,
  metadata: ToolMetadata,
  signal: AbortSignal,
  check: ApprovalCheck,
): Promise<void> {
  const { approval, granted } = check;
  const decision = resolveApproval(tool.name, metadata, approval);
  if (decision === "allow") return;
  if (decision === "deny") throw deniedError(tool.name);
  if (granted) return;
  if (!approval?.onAsk) {
    throw new ToolError(
      "permission_denied",
      `${tool.name} needs the user's approval, and this host cannot ask for it; the call was refused. Do not retry it; choose another approach or ask the user.`,
      { recoverable: false },
    );
  }
  // An onAsk that never answers (or ignores the signal) does not hold the call past its abort.
  const answer: unknown = await raceWithAbort(
    Promise.resolve().then(() => approval.onAsk!({ callId: call.id, toolName: tool.name, arguments: args, metadata, signal })),
    signal,
    () => cancelledError(),
  );
  if (answer === true || answer === "allow") {
    await check.onApproved?.();
    return;
  }
  throw new ToolError(
    "permission_denied",
    `The user declined this ${tool.name} call. Do not retry it; ask the user how to proceed or take a different approach.`,
    { recoverable: false },
  );
}

/** The error a denied tool answers with. */
export function deniedError(toolName: string): ToolError {
  return new ToolError("permission_denied", `${toolName} is denied by the host's approval policy. Do not retry it; take a different approach.`, {
    recoverable: false,
  });
}

async function runWithAbort(tool: ToolDefinition, input: unknown, context: ToolContext, signal: AbortSignal): Promise<ToolOutput> {
  const running = Promise.resolve().then(() => tool.execute(input, context));
  if (tool.handlesAbort) return running;
  // The tool keeps running after an abort; raceWithAbort keeps its late rejection handled.
  return raceWithAbort(running, signal, () => cancelledError());
}

function normalise(output: ToolOutput): ToolResult {
  if (output === null || typeof output !== "object") {
    return { content: [{ type: "text", text: String(output ?? "") }], details: {}, isError: false };
  }
  const content: ToolContent[] =
    typeof output.content === "string" ? [{ type: "text", text: output.content }] : Array.isArray(output.content) ? output.content : [];
  const details = output.details ?? {};
  if (output.isError !== true) return { content, details, isError: false };
  return { content, details, isError: true, error: returnedErrorOf(output.error, details, content) };
}

function toErrorResult(toolName: string, error: unknown, signal: AbortSignal): ToolResult {
  if (error instanceof ToolError) {
    const details = error.code === "cancelled" ? { cancelled: true, ...error.details } : { code: error.code, ...error.details };
    // A cancelled call was stopped by the host: whatever the tool set, the model cannot fix it by retrying.
    const carried = error.code === "cancelled" ? { ...toolErrorOf(error), recoverable: false } : toolErrorOf(error);
    return { content: [{ type: "text", text: error.message }], details, isError: true, error: carried };
  }
  if (signal.aborted || isAbortError(error)) return errorResult(CANCELLED_TEXT, { cancelled: true }, { code: "cancelled", recoverable: false });
  // Node's own errors quote their inputs (a 5 MB path in an ENOENT message): quote a prefix only.
  const message = shortenForMessage(error instanceof Error ? error.message : String(error), 2_000);
  return errorResult(
    `${toolName} failed unexpectedly: ${message}. Check the arguments; if the problem persists, take a different approach.`,
    { code: "other" },
    { code: "other", recoverable: true },
  );
}

function finish(tool: ToolDefinition, call: ToolCall, result: ToolResult, pathArgument: string | undefined, environment: ExecutorEnvironment): ToolResult {
  let content = result.content;
  const breaker = environment.loopBreaker;
  const cancelled = (result.details as { cancelled?: unknown } | undefined)?.cancelled === true;
  if (breaker && result.isError && !cancelled) {
    const text = toolResultText({ content });
    const count = breaker.recordFailure(tool.name, pathArgument, text, call.id);
    if (count >= 2) content = appendText(content, LoopBreaker.message(count));
  } else if (breaker && !result.isError) {
    breaker.recordSuccess();
  }
  const capped = capOutput(content, tool.maxOutputChars ?? environment.maxOutputChars);
  let details = result.details;
  if (capped.truncated && details !== null && typeof details === "object" && !Array.isArray(details)) {
    details = { ...(details as Record<string, unknown>), outputTruncated: capped.truncated };
  }
  return { content: capped.content, details, isError: result.isError, ...(result.error === undefined ? {} : { error: result.error }) };
}

function appendText(content: ToolContent[], suffix: string): ToolContent[] {
  const out = [...content];
  for (let index = out.length - 1; index >= 0; index -= 1) {
    const block = out[index]!;
    if (block.type === "text") {
      out[index] = { type: "text", text: block.text + suffix };
      return out;
    }
  }
  out.push({ type: "text", text: suffix.trim() });
  return out;
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A host listener that throws must not break the call.
  }
}
