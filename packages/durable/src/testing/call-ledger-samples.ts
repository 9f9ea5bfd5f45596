import { SdkError, type ToolResult } from "@agent-tools/core";
import { expect } from "vitest";
import type { CallLedgerCall, ToolEffects } from "@agent-tools/core/durable";

let counter = 0;

/** A run id no other test of this process uses. */
export function freshRunId(prefix = "run"): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

/** A call of `runId` with a fixed identity (tool `Write`, effects `idempotent`) unless overridden. */
export function sampleCall(
  runId: string,
  callId: string,
  overrides: Partial<Pick<CallLedgerCall, "toolName" | "argumentsHash" | "effects">> = {},
): CallLedgerCall {
  return { runId, callId, toolName: "Write", argumentsHash: "a".repeat(64), effects: "idempotent" as ToolEffects, ...overrides };
}

/** A plain text result. */
export function textResult(text: string, isError = false): ToolResult {
  return isError
    ? { content: [{ type: "text", text }], details: {}, isError: true, error: { code: "other", message: text, recoverable: true } }
    : { content: [{ type: "text", text }], details: { text }, isError: false };
}

/** A result with an image, text in many scripts and escapes, and ~256 KiB of nested details. */
export function richResult(): ToolResult {
  const image = Buffer.from(Uint8Array.from({ length: 48 * 1024 }, (_, index) => (index * 37) % 256)).toString("base64");
  const rows = Array.from({ length: 2000 }, (_, index) => ({
    index,
    name: `row ${index} — ✓ naïve 𝄞 "q" \\ \n\t`,
    flags: [index % 2 === 0, null, 1.5e-7 * index],
  }));
  return {
    content: [
      { type: "text", text: "Unicode: 日本語 العربية עברית 🧪👩🏽‍💻 e\u0301 \u0000 NUL, quotes \" ' `, backslash \\ and a lone surrogate \ud800." },
      { type: "image", data: image, mimeType: "image/png" },
    ],
    details: { rows, nested: { deep: { deeper: { deepest: ["x", { y: "z" }] } } }, empty: {}, list: [], unicodeKey_ünï: "ok" },
    isError: false,
  };
}

/** The result a ledger must answer for `result`: its JSON round trip. */
export function viaJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Key strings with characters SQL, LIKE patterns, shells and JSON treat specially; each well-formed and at most 200 characters. */
export const ODD_KEYS: readonly string[] = [
  "quote ' double \" back ` slash \\",
  "percent % underscore _ star *",
  "line\nbreak\ttab\rreturn",
  "'); drop table agent_tools_call_ledger; --",
  "emoji 🧪👩🏽‍💻 and ünïcödé and 日本",
  " leading and trailing spaces ",
  "x".repeat(200),
];

/** Expects `promise` to reject with an SdkError of `code` whose message matches `pattern`. */
export async function rejectsWith(promise: Promise<unknown>, code: string, pattern?: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, "the call should have thrown").toBeInstanceOf(SdkError);
  expect((error as SdkError).code).toBe(code);
  if (pattern !== undefined) expect((error as SdkError).message).toMatch(pattern);
}
