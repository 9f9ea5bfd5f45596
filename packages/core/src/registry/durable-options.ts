import { SdkError } from "../errors.js";
import type { CallLedger, DurableCallOptions } from "./call-ledger.js";

/** Longest call id a durable call may carry (the ledger's key part). */
export const MAX_CALL_ID_LENGTH = 200;

/** The methods a call ledger must have. */
const LEDGER_METHODS = ["get", "approve", "start", "finish", "list", "deleteRun"] as const;

/**
 * Checks the registry's `ledger` option: absent, or an object with every
 * method of `CallLedger`; anything else throws `SdkError("invalid_options")`.
 */
export function checkLedgerOption(ledger: unknown): CallLedger | undefined {
  if (ledger === undefined || ledger === null) return undefined;
  const missing =
    typeof ledger === "object" ? LEDGER_METHODS.filter((name) => typeof (ledger as Record<string, unknown>)[name] !== "function") : [...LEDGER_METHODS];
  if (missing.length > 0) {
    throw new SdkError(
      "invalid_options",
      `ledger must be a call ledger (e.g. \`await KyselyCallLedger.open(storage)\` or \`new InMemoryCallLedger()\` from @agent-tools/durable); it lacks ${missing.join(", ")}.`,
      { option: "ledger" },
    );
  }
  return ledger as CallLedger;
}

/** Longest run id the ledger accepts. */
export const MAX_RUN_ID_LENGTH = 200;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * True for a run or call id every ledger can store: a string of 1-200
 * characters without NUL or lone surrogates (PostgreSQL's text holds
 * neither, so the stores refuse them; refused here, it is the host's error
 * instead of a ledger that looks unavailable).
 */
export function isLedgerKeyText(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_RUN_ID_LENGTH && !value.includes("\u0000") && !LONE_SURROGATE.test(value);
}

/**
 * Checks the `durable` option of one call: an object with a `runId` of
 * 1-200 characters, on a registry that has a ledger. Host misuse throws
 * `SdkError("invalid_options")`.
 */
export function checkDurableOption(durable: unknown, ledger: CallLedger | undefined): DurableCallOptions | undefined {
  if (durable === undefined || durable === null) return undefined;
  if (typeof durable !== "object" || Array.isArray(durable)) {
    throw new SdkError("invalid_options", "executeToolCall's `durable` must be an object `{ runId }` or omitted.");
  }
  const keys = Object.keys(durable);
  const unknown = keys.find((key) => key !== "runId");
  if (unknown !== undefined) {
    throw new SdkError("invalid_options", `executeToolCall's \`durable\` has an unknown option ${JSON.stringify(unknown)}; the only one is \`runId\`.`, {
      option: `durable.${unknown}`,
    });
  }
  const { runId } = durable as { runId?: unknown };
  if (!isLedgerKeyText(runId)) {
    throw new SdkError(
      "invalid_options",
      `executeToolCall's \`durable.runId\` must be a string of 1-${MAX_RUN_ID_LENGTH} characters without NUL or lone surrogates (one id per turn or workflow).`,
      { option: "durable.runId" },
    );
  }
  if (ledger === undefined) {
    throw new SdkError(
      "invalid_options",
      "executeToolCall was given `durable`, but the registry has no call ledger: pass `ledger` (e.g. `await KyselyCallLedger.open(storage)` from @agent-tools/durable) to the registry.",
      { option: "durable" },
    );
  }
  return { runId };
}
