import { raceWithAbort } from "../abort.js";
import { ToolError } from "../errors.js";
import { shortenForMessage } from "../quote.js";
import type { ToolContext, ToolDefinition, ToolEffects, ToolOutput, ToolResult } from "../types.js";
import type { CallLedger, CallLedgerCall, CallLedgerEntry } from "./call-ledger.js";
import { callIdentityHash, resolveToolEffects } from "./durable-effects.js";
import { errorResult } from "./result-error.js";

/** What {@link openDurableCall} found: a result to hand back as it is, or a step to run through the ledger. */
export type DurableOpening = { readonly replay: ToolResult } | { readonly step: DurableStep };

/** Where the ledger and the call meet. */
export interface DurableCallInput {
  readonly ledger: CallLedger;
  readonly runId: string;
  readonly callId: string;
  /** The arguments as the model sent them (hashed as canonical JSON, with `scope`). */
  readonly args: unknown;
  /** The registry's scope (its workdir): part of the call's identity, so projects sharing a ledger never answer each other's calls. */
  readonly scope: string;
  /** The validated input (what `effects` and `resume` are asked about). */
  readonly input: unknown;
  /** The call's abort signal: a ledger that does not answer does not hold the call past it. */
  readonly signal?: AbortSignal;
}

/**
 * Looks the call up in the ledger before anything else happens to it: a
 * recorded outcome is answered as it is (the tool is not run, the user not
 * asked); a key recorded for another tool or other arguments is a conflict;
 * anything else becomes a {@link DurableStep}. A ledger that cannot be read
 * answers an `unavailable` result: nothing runs unrecorded.
 */
export async function openDurableCall(tool: ToolDefinition, durable: DurableCallInput): Promise<DurableOpening> {
  const call: CallLedgerCall = {
    runId: durable.runId,
    callId: durable.callId,
    toolName: tool.name,
    argumentsHash: await callIdentityHash(durable.scope, durable.args),
    effects: resolveToolEffects(tool, durable.input),
  };
  const ledger = durable.signal === undefined ? durable.ledger : abortableLedger(durable.ledger, durable.signal);
  let entry: CallLedgerEntry | undefined;
  try {
    entry = await ledger.get({ runId: call.runId, callId: call.callId });
  } catch (error) {
    if (error instanceof LedgerWaitCancelled) throw error.cause;
    return { replay: ledgerUnavailable(tool.name, error) };
  }
  if (entry !== undefined && (entry.toolName !== call.toolName || entry.argumentsHash !== call.argumentsHash)) {
    return { replay: keyConflict(call, entry) };
  }
  if (entry?.result !== undefined && (entry.state === "completed" || entry.state === "failed")) return { replay: entry.result };
  // The entry keeps the effects it was started with (its identity in the ledger); what happens to it now goes by
  // the stricter of those and the tool's current ones, so a tool declared unsafe since (an upgrade) is not run again.
  const identity = entry === undefined ? call : { ...call, effects: entry.effects };
  const effects = entry === undefined ? call.effects : stricterEffects(entry.effects, call.effects);
  const recorder = durable.signal === undefined ? durable.ledger : recordingLedger(durable.ledger, durable.signal);
  const step = new DurableStep(ledger, recorder, identity, { entry, effects });
  // Decided before approval: the user is never asked about a call that will not run.
  const unsafeReplay = await step.settleInterruptedUnsafe();
  return unsafeReplay === undefined ? { step } : { replay: unsafeReplay };
}

/** What {@link DurableStep.claim} answers: the attempt this writer runs, or a result to return instead of running. */
export type DurableClaim = { readonly attempt: number } | { readonly result: ToolResult };

/**
 * One call on its way through the ledger: approval recorded when the host
 * gives it, the run claimed (`started`) right before the tool runs, the
 * outcome recorded after.
 */
export class DurableStep {
  readonly #ledger: CallLedger;
  readonly #recorder: CallLedger;
  readonly #call: CallLedgerCall;
  readonly #entry: CallLedgerEntry | undefined;
  /** The effects the decisions go by (the stricter of the recorded and the current ones). */
  readonly #effects: ToolEffects;
  #attempt: number | undefined;

  /**
   * `ledger` answers the waits before the tool runs (raced against the
   * abort); `recorder` writes the outcome; `call` is the entry's identity;
   * `prior` is the entry read first and the effects to decide by.
   */
  constructor(
    ledger: CallLedger,
    recorder: CallLedger,
    call: CallLedgerCall,
    prior: { readonly entry: CallLedgerEntry | undefined; readonly effects: ToolEffects },
  ) {
    this.#ledger = ledger;
    this.#recorder = recorder;
    this.#call = call;
    this.#entry = prior.entry;
    this.#effects = prior.effects;
  }

  /** True when the host already approved this very call in an earlier attempt of the run. */
  get approved(): boolean {
    return this.#entry?.approved === true;
  }

  /** Records the host's approval before the call goes on (a resumed run does not ask again). */
  async approve(): Promise<void> {
    try {
      await this.#ledger.approve(this.#call);
    } catch (error) {
      if (error instanceof LedgerWaitCancelled) throw error.cause;
      throw unavailableError(this.#call.toolName, error);
    }
  }

  /** For an unsafe call that started before and has no outcome: its `outcome_unknown` result, recorded; else undefined. */
  async settleInterruptedUnsafe(): Promise<ToolResult | undefined> {
    const previous = this.#entry;
    if (previous?.state !== "started" || this.#effects !== "unsafe") return undefined;
    const settled = await this.#settleUnknown(previous, undefined);
    return "result" in settled ? settled.result : undefined;
  }

  /**
   * Right before the tool runs: a call that started before and has no
   * outcome runs again only when its effects allow it (and its `resume`
   * does not say otherwise), else it is reported `outcome_unknown`; then
   * the run is claimed, compare-and-set, so two resumers never both run it.
   */
  async claim(tool: ToolDefinition, input: unknown, context: ToolContext): Promise<DurableClaim> {
    const previous = this.#entry;
    const expectedAttempts = previous?.state === "started" ? previous.attempts : 0;
    if (previous?.state === "started") {
      const resumed = await this.#resume(tool, input, context, previous);
      if (resumed !== undefined) return resumed;
    }
    let claim: Awaited<ReturnType<CallLedger["start"]>>;
    try {
      claim = await this.#ledger.start(this.#call, expectedAttempts);
    } catch (error) {
      if (error instanceof LedgerWaitCancelled) throw error.cause;
      return { result: ledgerUnavailable(this.#call.toolName, error) };
    }
    if (claim.claimed) {
      this.#attempt = claim.entry.attempts;
      return { attempt: claim.entry.attempts };
    }
    const stored = claim.entry;
    if (stored.toolName !== this.#call.toolName || stored.argumentsHash !== this.#call.argumentsHash) return { result: keyConflict(this.#call, stored) };
    if (stored.result !== undefined && (stored.state === "completed" || stored.state === "failed")) return { result: stored.result };
    // Another writer started it meanwhile (a second resumer, an engine's retry): never run it twice.
    return {
      result: outcomeUnknown(
        { ...this.#call, effects: this.#effects },
        stored,
        "another process started this call at the same time and has not recorded its outcome",
      ),
    };
  }

  /**
   * Records the result of the attempt this step claimed. A ledger that
   * fails here leaves the call `started`: a resumed run then treats it as
   * interrupted (`outcome_unknown` for an unsafe call), never as not run.
   */
  async record(result: ToolResult): Promise<void> {
    if (this.#attempt === undefined) return;
    const attempt = this.#attempt;
    this.#attempt = undefined;
    try {
      const stored = storableResult(result);
      await this.#recorder.finish({ runId: this.#call.runId, callId: this.#call.callId }, attempt, {
        state: result.isError ? "failed" : "completed",
        result: stored,
      });
    } catch {
      // Left `started`: see above.
    }
  }

  async #resume(tool: ToolDefinition, input: unknown, context: ToolContext, previous: CallLedgerEntry): Promise<DurableClaim | undefined> {
    if (this.#effects === "unsafe") return this.#settleUnknown(previous, undefined);
    if (tool.resume === undefined) return undefined;
    let decision: Awaited<ReturnType<NonNullable<ToolDefinition["resume"]>>>;
    try {
      // Host code: one that never answers must not hold the call past the host's abort (nothing recorded then).
      decision = await raceWithAbort(
        Promise.resolve().then(() => tool.resume!(input, context)),
        context.signal,
        () => new ToolError("cancelled", "Cancelled: the host aborted this call before it finished.", { recoverable: false }),
      );
    } catch (error) {
      if (context.signal.aborted) throw error;
      return this.#settleUnknown(previous, `checking whether it had already happened failed: ${messageOf(error)}`);
    }
    if (decision?.action === "run") return undefined;
    if (decision?.action === "done" && decision.output !== null && typeof decision.output === "object") return this.#settleDone(previous, decision.output);
    if (decision?.action === "done") return this.#settleUnknown(previous, "its check answered done without an output");
    return this.#settleUnknown(previous, decision?.action === "unknown" ? decision.note : undefined);
  }

  /** An interrupted call reported `outcome_unknown`, recorded as failed so every later resume answers the same. */
  async #settleUnknown(previous: CallLedgerEntry, note: string | undefined): Promise<DurableClaim> {
    const result = outcomeUnknown({ ...this.#call, effects: this.#effects }, previous, note);
    return { result: await this.#settle(previous, result) };
  }

  /** An interrupted call whose effect is already there: recorded completed with the tool's own answer. */
  async #settleDone(previous: CallLedgerEntry, output: ToolOutput): Promise<DurableClaim> {
    const result = normaliseResumed(output);
    return { result: await this.#settle(previous, result) };
  }

  /** Records a settled result for the interrupted attempt; if another writer got there first, its record wins. */
  async #settle(previous: CallLedgerEntry, result: ToolResult): Promise<ToolResult> {
    const key = { runId: this.#call.runId, callId: this.#call.callId };
    try {
      if (await this.#ledger.finish(key, previous.attempts, { state: result.isError ? "failed" : "completed", result: storableResult(result) })) return result;
      const stored = await this.#ledger.get(key);
      return stored?.result ?? result;
    } catch (error) {
      if (error instanceof LedgerWaitCancelled) throw error.cause;
      return ledgerUnavailable(this.#call.toolName, error);
    }
  }
}

/** A ledger call the host's abort ended before the ledger answered; `cause` is the call's cancellation. */
class LedgerWaitCancelled extends Error {
  override readonly cause: ToolError;
  constructor() {
    const cause = new ToolError("cancelled", "Cancelled: the host aborted this call before it finished.", { recoverable: false });
    super(cause.message);
    this.cause = cause;
  }
}

/**
 * The ledger with every method raced against the call's abort: a ledger
 * that hangs (a database that stopped answering) does not hold the call
 * past it. A write the abort left pending may still land: a `start` then
 * reads as an interrupted call on resume, never as one not run.
 */
function abortableLedger(ledger: CallLedger, signal: AbortSignal): CallLedger {
  const race = <T>(run: () => Promise<T>): Promise<T> => raceWithAbort(Promise.resolve().then(run), signal, () => new LedgerWaitCancelled());
  return {
    get: (key) => race(() => ledger.get(key)),
    approve: (call) => race(() => ledger.approve(call)),
    start: (call, expectedAttempts) => race(() => ledger.start(call, expectedAttempts)),
    finish: (key, attempt, outcome) => race(() => ledger.finish(key, attempt, outcome)),
    list: (runId, options) => race(() => ledger.list(runId, options)),
    deleteRun: (runId) => race(() => ledger.deleteRun(runId)),
  };
}

/**
 * The ledger that writes a call's outcome: a call cancelled before its
 * outcome is written still has it written (its cancelled result), but an
 * abort while the write waits (a database gone silent) returns the result
 * without it, left `started` as after a crash.
 */
function recordingLedger(ledger: CallLedger, signal: AbortSignal): CallLedger {
  const finish: CallLedger["finish"] = (key, attempt, outcome) =>
    signal.aborted
      ? ledger.finish(key, attempt, outcome)
      : raceWithAbort(
          Promise.resolve().then(() => ledger.finish(key, attempt, outcome)),
          signal,
        );
  return { ...bound(ledger), finish };
}

function bound(ledger: CallLedger): CallLedger {
  return {
    get: (key) => ledger.get(key),
    approve: (call) => ledger.approve(call),
    start: (call, expectedAttempts) => ledger.start(call, expectedAttempts),
    finish: (key, attempt, outcome) => ledger.finish(key, attempt, outcome),
    list: (runId, options) => ledger.list(runId, options),
    deleteRun: (runId) => ledger.deleteRun(runId),
  };
}

const EFFECTS_ORDER: Readonly<Record<ToolEffects, number>> = { none: 0, idempotent: 1, unsafe: 2 };

/** The stricter of two declarations (unsafe over idempotent over none); a recorded value of another kind counts as unsafe. */
function stricterEffects(recorded: ToolEffects, current: ToolEffects): ToolEffects {
  const rank = Object.hasOwn(EFFECTS_ORDER, recorded) ? EFFECTS_ORDER[recorded] : EFFECTS_ORDER.unsafe;
  return rank >= EFFECTS_ORDER[current] ? (rank === EFFECTS_ORDER.unsafe ? "unsafe" : recorded) : current;
}

/** The answer for a call that started before and whose outcome nobody recorded. */
function outcomeUnknown(call: CallLedgerCall, entry: CallLedgerEntry, note: string | undefined): ToolResult {
  const when = Number.isFinite(entry.updatedAt) ? new Date(entry.updatedAt).toISOString() : "earlier";
  const effectsText: Record<ToolEffects, string> = {
    none: "it reads only",
    idempotent: "running it again would leave things as one run does",
    unsafe: "running it again could repeat its effect",
  };
  const text =
    `Outcome unknown: this ${call.toolName} call (id ${JSON.stringify(call.callId)}) was started at ${when} (attempt ${entry.attempts}) ` +
    `but the run was interrupted before its outcome was recorded${note === undefined ? "" : ` (${shortenForMessage(note, 500)})`}. ` +
    `It may or may not have taken effect, and it was not run again because ${effectsText[call.effects]}. ` +
    "Check whether its effect happened (look at the files, processes or remote state it would change) before deciding to issue it again.";
  return errorResult(
    text,
    { code: "outcome_unknown", runId: call.runId, callId: call.callId, attempts: entry.attempts, effects: call.effects, startedAt: entry.updatedAt },
    { code: "outcome_unknown", recoverable: false },
  );
}

/** A call id of the run recorded for another tool or other arguments: never run, never answered with the other call's result. */
function keyConflict(call: CallLedgerCall, entry: CallLedgerEntry): ToolResult {
  const same = entry.toolName === call.toolName;
  return errorResult(
    `Call id ${JSON.stringify(call.callId)} was already used in this run for ${same ? "a call with other arguments (or from another project sharing this ledger)" : `a ${entry.toolName} call`}; this ${call.toolName} call was not run. Issue it again with a new call id.`,
    { code: "conflict", runId: call.runId, callId: call.callId, recordedTool: entry.toolName },
    { code: "conflict", recoverable: true },
  );
}

function ledgerUnavailable(toolName: string, error: unknown): ToolResult {
  const failure = unavailableError(toolName, error);
  return errorResult(failure.message, { code: "unavailable" }, { code: "unavailable", recoverable: true });
}

function unavailableError(toolName: string, error: unknown): ToolError {
  return new ToolError(
    "unavailable",
    `The host's call ledger could not be written (${shortenForMessage(messageOf(error), 300)}); this ${toolName} call was not run. Try again later.`,
  );
}

function normaliseResumed(output: ToolOutput): ToolResult {
  const content = typeof output.content === "string" ? [{ type: "text" as const, text: output.content }] : Array.isArray(output.content) ? output.content : [];
  const details = output.details ?? {};
  if (output.isError !== true) return { content, details, isError: false };
  const text = content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  return { content, details, isError: true, error: output.error ?? { code: "other", message: text, recoverable: true } };
}

/**
 * The result as the ledger can hold it (JSON): a tool's details with a
 * BigInt (a `stat` with `bigint: true`) or a cycle would make the ledger
 * refuse the outcome, leaving a call that ran to completion `started`, so a
 * resumed run would report it `outcome_unknown`. BigInts are recorded as
 * decimal strings; details JSON still cannot write are recorded as a note.
 */
function storableResult(result: ToolResult): ToolResult {
  if (jsonText(result, false) !== undefined) return result;
  const text = jsonText(result, true);
  if (text !== undefined) return JSON.parse(text) as ToolResult;
  return { ...result, details: { detailsNotRecorded: "the details of this result could not be written as JSON" } };
}

function jsonText(value: unknown, bigintsAsText: boolean): string | undefined {
  try {
    return JSON.stringify(value, bigintsAsText ? (_key, member: unknown) => (typeof member === "bigint" ? member.toString() : member) : undefined);
  } catch {
    return undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
