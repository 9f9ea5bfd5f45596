import { describe, expect, it } from "vitest";
import type { HookRunContext } from "./hook-run.js";
import type { HookInput } from "./hook-settings.js";
import { runFunctionHook } from "./run-function-hook.js";

const input: HookInput = {
  hook_event_name: "PreToolUse",
  cwd: "/work",
  permission_mode: "default",
  tool_name: "Bash",
  tool_input: { command: "ls" },
  tool_use_id: "c",
};

function context(signal: AbortSignal = new AbortController().signal): HookRunContext {
  return { workdir: "/work", signal, running: new Set() };
}

describe("runFunctionHook", () => {
  it("passes the input and returns the answer (sync or async)", async () => {
    const seen: HookInput[] = [];
    const outcome = await runFunctionHook(
      {
        type: "function",
        run: (given) => {
          seen.push(given);
          return { hookSpecificOutput: { permissionDecision: "allow" } };
        },
      },
      input,
      context(),
    );
    expect(outcome).toEqual({ kind: "answered", output: { hookSpecificOutput: { permissionDecision: "allow" } } });
    expect(seen).toEqual([input]);
    expect(await runFunctionHook({ type: "function", run: async () => undefined }, input, context())).toEqual({ kind: "answered", output: {} });
  });

  it("fails when it throws or rejects, naming the message", async () => {
    const thrown = await runFunctionHook(
      {
        type: "function",
        run: () => {
          throw new Error("bug");
        },
      },
      input,
      context(),
    );
    expect(thrown).toEqual({ kind: "failed", error: "threw: bug" });
    expect(await runFunctionHook({ type: "function", run: () => Promise.reject(new Error("later")) }, input, context())).toEqual({
      kind: "failed",
      error: "threw: later",
    });
  });

  it("fails on an answer of the wrong shape", async () => {
    const outcome = await runFunctionHook({ type: "function", run: () => ({ decision: "approve" }) as never }, input, context());
    expect(outcome).toEqual({ kind: "failed", error: 'its answer\'s "decision" must be "block"' });
    const mismatch = await runFunctionHook({ type: "function", run: () => ({ hookSpecificOutput: { hookEventName: "PostToolUse" } }) }, input, context());
    expect(mismatch.kind === "failed" && mismatch.error).toContain('not "PreToolUse"');
  });

  it("fails at its timeout even when it ignores the signal, and aborts its signal", async () => {
    let signal: AbortSignal | undefined;
    const outcome = await runFunctionHook(
      {
        type: "function",
        timeoutMs: 100,
        run: (_input, options) => {
          signal = options.signal;
          return new Promise(() => undefined);
        },
      },
      input,
      context(),
    );
    expect(outcome).toEqual({ kind: "failed", error: "timed out after 100 ms" });
    expect(signal?.aborted).toBe(true);
  });

  it("fails when the call is aborted", async () => {
    const controller = new AbortController();
    const running = runFunctionHook({ type: "function", run: () => new Promise(() => undefined) }, input, context(controller.signal));
    controller.abort();
    expect(await running).toEqual({ kind: "failed", error: "was aborted" });
    const before = new AbortController();
    before.abort();
    let ran = false;
    const outcome = await runFunctionHook(
      {
        type: "function",
        run: () => {
          ran = true;
        },
      },
      input,
      context(before.signal),
    );
    expect(outcome).toEqual({ kind: "failed", error: "was aborted" });
    expect(ran).toBe(false);
  });

  it("gives the function a copy of the input: changing it does not change the call", async () => {
    const callInput = { command: "ls" };
    const given: HookInput = { ...input, tool_input: callInput };
    const outcome = await runFunctionHook(
      {
        type: "function",
        run: (seen) => {
          (seen.tool_input as { command: string }).command = "rm -rf /";
        },
      },
      given,
      context(),
    );
    expect(outcome).toEqual({ kind: "answered", output: {} });
    expect(callInput).toEqual({ command: "ls" });
  });
});
